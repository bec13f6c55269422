// The Findings panel: one row per finding or parse error; click reveals it in the editor; suggestions with DDL.
import { useState, type KeyboardEvent } from 'react';
import type { Finding, Severity, Suggestion } from '../../core/model/report.js';
import { copyText } from '../platform.js';
import { findingTarget, itemSeverity, type ReportItem } from '../report-items.js';

/** Props of {@link FindingsPanel}. */
export interface FindingsPanelProps {
  items: ReportItem[];
  /** False before the first analysis (the empty state says what to do). */
  analyzed: boolean;
  /** The text changed since the report. */
  stale: boolean;
  /** Keys whose flagged text is unchanged (still marked in the editor). */
  liveKeys: Set<string>;
  shortcut: string;
  onReveal(key: string): void;
}

const severityLabel: Record<Severity, string> = { error: 'Error', warning: 'Warning', info: 'Info' };

/** Severity icon (SVG, colored by CSS), labelled for screen readers. */
export function SeverityIcon({ severity }: { severity: Severity }) {
  return (
    <svg
      className={`severity-icon severity-icon--${severity}`}
      viewBox="0 0 16 16"
      role="img"
      aria-label={severityLabel[severity]}
    >
      {severity === 'error' && (
        <>
          <circle cx="8" cy="8" r="7" />
          <path d="M5.5 5.5l5 5M10.5 5.5l-5 5" className="severity-icon__glyph" />
        </>
      )}
      {severity === 'warning' && (
        <>
          <path d="M8 1.5l7 12.5H1z" />
          <path d="M8 6v4M8 11.8v.4" className="severity-icon__glyph" />
        </>
      )}
      {severity === 'info' && (
        <>
          <circle cx="8" cy="8" r="7" />
          <path d="M8 7v4.5M8 4.3v.4" className="severity-icon__glyph" />
        </>
      )}
    </svg>
  );
}

/** The list of findings and parse errors, or an empty state that says what to do. */
export function FindingsPanel({ items, analyzed, stale, liveKeys, shortcut, onReveal }: FindingsPanelProps) {
  if (!analyzed) {
    return (
      <div className="empty-state" data-testid="findings-empty">
        <p className="empty-state__title">
          Press <kbd>{shortcut}</kbd> to analyze
        </p>
        <p>
          Findings appear here and are underlined in the editor. Connect to a server for live schema and
          settings, or work offline with CREATE TABLE statements.
        </p>
      </div>
    );
  }
  if (items.length === 0) {
    return (
      <div className="empty-state" data-testid="findings-none">
        <p className="empty-state__title">No findings</p>
        <p>Every predicate the advisor checks can use an index as written.</p>
      </div>
    );
  }
  return (
    <div className="findings">
      {stale && (
        <p className="findings__stale" role="status">
          The SQL changed since this analysis. Press <kbd>{shortcut}</kbd> to refresh.
        </p>
      )}
      <ul className="findings__list" aria-label="Findings" onKeyDown={moveFocus}>
        {items.map((item) => (
          <FindingRow
            key={item.key}
            item={item}
            expanded={items.length <= 3}
            outdated={stale && !liveKeys.has(item.key)}
            onReveal={() => onReveal(item.key)}
          />
        ))}
      </ul>
    </div>
  );
}

/** Arrow keys move between rows, Home/End jump to the first/last row. */
function moveFocus(event: KeyboardEvent<HTMLUListElement>) {
  const rows = Array.from(event.currentTarget.querySelectorAll<HTMLButtonElement>('.finding__main'));
  const current = rows.indexOf(document.activeElement as HTMLButtonElement);
  const next =
    event.key === 'ArrowDown'
      ? Math.min(rows.length - 1, current + 1)
      : event.key === 'ArrowUp'
        ? Math.max(0, current - 1)
        : event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? rows.length - 1
            : null;
  if (next === null || current === -1) return;
  event.preventDefault();
  rows[next]?.focus();
}

function FindingRow({
  item,
  expanded,
  outdated,
  onReveal,
}: {
  item: ReportItem;
  expanded: boolean;
  outdated: boolean;
  onReveal(): void;
}) {
  const severity = itemSeverity(item);
  const position = item.kind === 'finding' ? item.finding : item.error;
  return (
    <li
      className={`finding finding--${severity}${outdated ? ' finding--outdated' : ''}`}
      data-testid={item.kind === 'finding' ? 'finding' : 'parse-error'}
      data-rule={item.kind === 'finding' ? item.finding.rule : undefined}
    >
      <button
        type="button"
        className="finding__main"
        onClick={onReveal}
        title={outdated ? 'This text changed since the analysis' : 'Show in editor'}
      >
        <SeverityIcon severity={severity} />
        <span className="finding__rule" data-testid="finding-rule">
          {item.kind === 'finding' ? item.finding.rule : 'Parse error'}
        </span>
        <span className="finding__message" data-testid="finding-message">
          {item.kind === 'finding' ? item.finding.message : item.error.message}
        </span>
        <span className="finding__position">
          Ln {position.line}, Col {position.column}
        </span>
      </button>
      {item.kind === 'finding' && <FindingDetails finding={item.finding} expanded={expanded} />}
    </li>
  );
}

function FindingDetails({ finding, expanded }: { finding: Finding; expanded: boolean }) {
  const target = findingTarget(finding);
  return (
    <div className="finding__details">
      <div className="finding__meta">
        {target && (
          <span className="chip" data-testid="finding-target" title="Table and column">
            {target}
          </span>
        )}
        {finding.expression && (
          <code className="chip chip--code" data-testid="finding-expression">
            {finding.expression}
          </code>
        )}
        <span className="chip chip--muted" data-testid="finding-category">
          {finding.category}
        </span>
      </div>
      {finding.notes && finding.notes.length > 0 && (
        <ul className="finding__notes">
          {finding.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      {finding.suggestions.length > 0 && (
        <details className="suggestions-toggle" open={expanded}>
          <summary>
            {finding.suggestions.length === 1 ? '1 suggestion' : `${finding.suggestions.length} suggestions`}
          </summary>
          <ol className="suggestions" aria-label="Suggestions">
            {finding.suggestions.map((suggestion, index) => (
              <SuggestionView key={index} suggestion={suggestion} />
            ))}
          </ol>
        </details>
      )}
    </div>
  );
}

const kindLabel: Record<Suggestion['kind'], string> = {
  rewrite: 'Rewrite the predicate',
  'functional-index': 'Functional index',
  'generated-column': 'Indexed generated column',
  index: 'Index',
};

function SuggestionView({ suggestion }: { suggestion: Suggestion }) {
  return (
    <li className="suggestion" data-testid="suggestion">
      <div className="suggestion__head">
        <span className="suggestion__kind">{kindLabel[suggestion.kind] ?? suggestion.kind}</span>
        <span
          className={`badge ${suggestion.equivalent ? 'badge--ok' : 'badge--caution'}`}
          title={
            suggestion.equivalent
              ? 'Returns exactly the same rows as the original'
              : 'Not proven equivalent: check the notes before using it'
          }
        >
          {suggestion.equivalent ? 'equivalent' : 'not equivalent'}
        </span>
        {suggestion.verification !== undefined && <span className="badge badge--ok">verified</span>}
      </div>
      {suggestion.ddl.length > 0 && <CodeBlock label="DDL" code={suggestion.ddl.join('\n')} />}
      {suggestion.rewrittenSql && <CodeBlock label="Rewritten SQL" code={suggestion.rewrittenSql} />}
      {suggestion.notes.length > 0 && (
        <ul className="suggestion__notes">
          {suggestion.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
    </li>
  );
}

function CodeBlock({ label, code }: { label: string; code: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy() {
    try {
      await copyText(code);
      setState('copied');
    } catch {
      setState('failed');
    }
    window.setTimeout(() => setState('idle'), 1500);
  }
  return (
    <figure className="code-block">
      <figcaption className="code-block__head">
        <span>{label}</span>
        <button type="button" className="button button--small" onClick={copy} aria-label={`Copy ${label}`}>
          {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
        </button>
      </figcaption>
      <pre>
        <code data-testid="code-block">{code}</code>
      </pre>
    </figure>
  );
}
