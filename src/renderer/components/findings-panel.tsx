// The Findings panel: one row per finding or parse error; click reveals it in the editor; suggestions with DDL.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { DdlOutcomeView, type DdlOutcome } from './apply-ddl-dialog.js';
import type { Finding, Severity, Suggestion } from '../../core/model/report.js';
import type { WhatIfReply } from '../../shared/api/explain.js';
import { CodeBlock, useCopy } from './code-block.js';
import { DiffView } from './diff-view.js';
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
  /** The row to highlight and scroll to (F8, or a plan node's link). */
  selectedKey?: string | null;
  /** Suggestion actions; omitted in contexts without them. */
  actions?: SuggestionActions;
  /** Rules disabled in this workspace, and how to change that; omitted where the workspace is unavailable. */
  rules?: RuleToggles;
  /** Opt-in rules (off by default) and how to switch them on for the session; omitted where not offered. */
  optIn?: OptInToggles;
}

/** Opt-in rules (meta.optIn, e.g. QRY001) switched on or off for this session. */
export interface OptInToggles {
  rules: readonly { id: string; title: string; enabled: boolean }[];
  onChange(rule: string, enabled: boolean): void;
}

/** One checkbox per opt-in rule; nothing when there are none. */
function OptInRules({ optIn }: { optIn: OptInToggles | undefined }) {
  if (!optIn || optIn.rules.length === 0) return null;
  return (
    <div className="findings__disabled" data-testid="opt-in-rules" role="group" aria-label="Opt-in rules">
      <span>Opt-in rules:</span>
      {optIn.rules.map((rule) => (
        <label key={rule.id} className="chip" title={rule.title}>
          <input
            type="checkbox"
            checked={rule.enabled}
            onChange={(event) => optIn.onChange(rule.id, event.target.checked)}
            data-testid="opt-in-rule"
            data-rule={rule.id}
          />
          {rule.id}
        </label>
      ))}
    </div>
  );
}

/** Disabling advisor rules for the current workspace. */
export interface RuleToggles {
  /** Rule IDs disabled in this workspace (sorted). */
  disabled: readonly string[];
  onDisable(rule: string): void;
  onEnable(rule: string): void;
}

/** The rules disabled in this workspace, each with a Re-enable button; nothing when none are. */
function DisabledRules({ rules }: { rules: RuleToggles | undefined }) {
  if (!rules || rules.disabled.length === 0) return null;
  return (
    <div className="findings__disabled" data-testid="disabled-rules" role="group" aria-label="Disabled rules">
      <span>Disabled in this workspace:</span>
      {rules.disabled.map((rule) => (
        <span key={rule} className="chip" data-testid="disabled-rule" data-rule={rule}>
          {rule}
          <button
            type="button"
            className="button button--small"
            onClick={() => rules.onEnable(rule)}
            title={`Run ${rule} again in this workspace`}
            data-testid="enable-rule"
          >
            Re-enable
          </button>
        </span>
      ))}
    </div>
  );
}

/** What a suggestion can do from the panel. */
export interface SuggestionActions {
  /** Why Verify is unavailable (no connection, no sandbox flag), or null when it is available. */
  verifyBlocked: string | null;
  onVerify(itemKey: string, suggestionIndex: number): void;
  /** What-if results by `itemKey#suggestionIndex`. */
  verifications: Readonly<Record<string, WhatIfReply>>;
  onApplyRewrite(itemKey: string, rewrittenSql: string): void;
  /** Why Apply DDL is unavailable (no live connection), or null when it is available. */
  applyBlocked?: string | null;
  /** Open the Apply DDL confirmation for a suggestion's DDL; omitted where applying is not offered. */
  onApplyDdl?(itemKey: string, suggestionIndex: number): void;
  /** Apply DDL outcomes by `itemKey#suggestionIndex`. */
  ddlOutcomes?: Readonly<Record<string, DdlOutcome>>;
  /** Null when the workspace API is unavailable. */
  onAccept: ((itemKey: string, suggestionIndex: number) => void) | null;
  accepted: ReadonlySet<string>;
  /** The analyzed statement of a finding (the left side of a rewrite's diff). */
  originalSql?(itemKey: string): string | undefined;
  /** Dark theme for the diff editor. */
  dark?: boolean;
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
export function FindingsPanel({
  items,
  analyzed,
  stale,
  liveKeys,
  shortcut,
  onReveal,
  selectedKey,
  actions,
  rules,
  optIn,
}: FindingsPanelProps) {
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (!selectedKey) return;
    const row = list.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(selectedKey)}"]`);
    row?.scrollIntoView({ block: 'nearest' });
  }, [selectedKey]);
  if (!analyzed) {
    return (
      <div className="empty-state" data-testid="findings-empty">
        <p className="empty-state__title">
          Press <kbd>{shortcut}</kbd> to analyze the statement at the cursor
        </p>
        <p>
          Findings appear here and are underlined in the editor. Connect to a server for live schema and
          settings, work offline with CREATE TABLE statements, or choose <strong>Try it</strong> in the
          toolbar for a demo that needs no server.
        </p>
        <OptInRules optIn={optIn} />
      </div>
    );
  }
  if (items.length === 0) {
    return (
      <div className="empty-state" data-testid="findings-none">
        <p className="empty-state__title">No findings</p>
        <p>Every predicate the advisor checks can use an index as written.</p>
        <DisabledRules rules={rules} />
        <OptInRules optIn={optIn} />
      </div>
    );
  }
  return (
    <div className="findings">
      <DisabledRules rules={rules} />
      <OptInRules optIn={optIn} />
      {stale && (
        <p className="findings__stale" role="status">
          The SQL changed since this analysis. Press <kbd>{shortcut}</kbd> to refresh.
        </p>
      )}
      <ul className="findings__list" aria-label="Findings" onKeyDown={moveFocus} ref={list}>
        {items.map((item) => (
          <FindingRow
            key={item.key}
            item={item}
            expanded={items.length <= 3 || item.key === selectedKey}
            selected={item.key === selectedKey}
            outdated={stale && !liveKeys.has(item.key)}
            onReveal={() => onReveal(item.key)}
            actions={actions}
            rules={rules}
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
  selected,
  outdated,
  onReveal,
  actions,
  rules,
}: {
  item: ReportItem;
  expanded: boolean;
  selected: boolean;
  outdated: boolean;
  onReveal(): void;
  actions: SuggestionActions | undefined;
  rules: RuleToggles | undefined;
}) {
  const severity = itemSeverity(item);
  const position = item.kind === 'finding' ? item.finding : item.error;
  return (
    <li
      className={`finding finding--${severity}${outdated ? ' finding--outdated' : ''}${selected ? ' is-selected' : ''}`}
      data-testid={item.kind === 'finding' ? 'finding' : 'parse-error'}
      data-key={item.key}
      aria-current={selected ? 'true' : undefined}
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
      {item.kind === 'finding' && (
        <FindingDetails
          itemKey={item.key}
          finding={item.finding}
          expanded={expanded}
          actions={actions}
          rules={rules}
        />
      )}
    </li>
  );
}

function FindingDetails({
  itemKey,
  finding,
  expanded,
  actions,
  rules,
}: {
  itemKey: string;
  finding: Finding;
  expanded: boolean;
  actions: SuggestionActions | undefined;
  rules: RuleToggles | undefined;
}) {
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
        {rules && (
          <button
            type="button"
            className="button button--small"
            onClick={() => rules.onDisable(finding.rule)}
            title={`Stop running ${finding.rule} for this workspace (re-enable it from the list above the findings)`}
            data-testid="disable-rule"
          >
            Disable rule in this workspace
          </button>
        )}
      </div>
      {finding.notes && finding.notes.length > 0 && (
        <ul className="finding__notes">
          {finding.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      {finding.predictedError && (
        <p className="finding__predicted" data-testid="finding-predicted">
          Predicted: ERROR {finding.predictedError.code} ({finding.predictedError.sqlState}){' '}
          {finding.predictedError.message}
          {finding.predictedError.warningOnly ? ' — a warning only' : ''}
        </p>
      )}
      {finding.suggestions.length > 0 && (
        <details className="suggestions-toggle" open={expanded || undefined}>
          <summary>
            {finding.suggestions.length === 1 ? '1 suggestion' : `${finding.suggestions.length} suggestions`}
          </summary>
          <ol className="suggestions" aria-label="Suggestions">
            {finding.suggestions.map((suggestion, index) => (
              <SuggestionView
                key={index}
                suggestion={suggestion}
                itemKey={itemKey}
                index={index}
                canVerify={finding.table !== null}
                actions={actions}
              />
            ))}
          </ol>
        </details>
      )}
    </div>
  );
}

const kindLabel: Partial<Record<Suggestion['kind'], string>> = {
  rewrite: 'Rewrite the predicate',
  'functional-index': 'Functional index',
  'generated-column': 'Indexed generated column',
  index: 'Index',
};

function SuggestionView({
  suggestion,
  itemKey,
  index,
  canVerify,
  actions,
}: {
  suggestion: Suggestion;
  itemKey: string;
  index: number;
  canVerify: boolean;
  actions: SuggestionActions | undefined;
}) {
  const id = `${itemKey}#${index}`;
  const alternativeAccepted =
    actions !== undefined &&
    !actions.accepted.has(id) &&
    [...actions.accepted].some((key) => key.startsWith(`${itemKey}#`));
  const verification = actions?.verifications[id];
  const verifiable = canVerify && suggestion.ddl.length > 0 && suggestion.kind !== 'rewrite';
  const original = suggestion.rewrittenSql ? actions?.originalSql?.(itemKey) : undefined;
  const [showDiff, setShowDiff] = useState(false);
  return (
    <li className="suggestion" data-testid="suggestion" data-kind={suggestion.kind}>
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
        {(suggestion.verification !== undefined || verification) && (
          <span
            className={`badge ${verification?.verdict === 'worse' ? 'badge--caution' : 'badge--ok'}`}
            data-testid="suggestion-verified"
            title="EXPLAIN before/after ran on the server with this index"
          >
            verified{verification ? `: ${verification.verdict}` : ''}
          </span>
        )}
        {actions?.accepted.has(id) && <span className="badge badge--ok">in export</span>}
        <span className="suggestion__actions">
          {actions && suggestion.rewrittenSql && (
            <button
              type="button"
              className="button button--small"
              onClick={() => actions.onApplyRewrite(itemKey, suggestion.rewrittenSql ?? '')}
              title="Replace the statement in the editor with this rewrite (Ctrl+. in the editor)"
              data-testid="apply-rewrite"
            >
              Apply to editor
            </button>
          )}
          {original !== undefined && (
            <button
              type="button"
              className="button button--small"
              aria-pressed={showDiff}
              onClick={() => setShowDiff((shown) => !shown)}
              title="Compare the statement with this rewrite, side by side"
              data-testid="show-diff"
            >
              {showDiff ? 'Hide diff' : 'Diff'}
            </button>
          )}
          {actions && verifiable && (
            <button
              type="button"
              className="button button--small"
              aria-disabled={actions.verifyBlocked ? true : undefined}
              title={
                actions.verifyBlocked ??
                'Build the index invisibly or on the sandbox, compare EXPLAIN, drop it'
              }
              onClick={() => {
                if (!actions.verifyBlocked) actions.onVerify(itemKey, index);
              }}
              data-testid="verify"
            >
              Verify…
            </button>
          )}
          {actions?.onApplyDdl && suggestion.ddl.length > 0 && suggestion.kind !== 'rewrite' && (
            <button
              type="button"
              className="button button--small"
              aria-disabled={actions.applyBlocked ? true : undefined}
              disabled={actions.ddlOutcomes?.[id]?.state === 'running'}
              title={
                actions.applyBlocked ??
                'Run this DDL on the server (a write): shows the exact SQL and asks first'
              }
              onClick={() => {
                if (!actions.applyBlocked) actions.onApplyDdl?.(itemKey, index);
              }}
              data-testid="apply-ddl"
            >
              Apply DDL…
            </button>
          )}
          {actions?.onAccept && suggestion.ddl.length > 0 && !actions.accepted.has(id) && (
            <button
              type="button"
              className="button button--small"
              onClick={() => actions.onAccept?.(itemKey, index)}
              title={
                alternativeAccepted
                  ? 'Export this fix instead of the accepted alternative (one fix per finding: the other leaves the export)'
                  : 'Accept this change into the workspace (Export panel)'
              }
              data-testid="accept"
            >
              {alternativeAccepted ? 'Accept instead' : 'Accept'}
            </button>
          )}
        </span>
      </div>

      {suggestion.ddl.length > 0 && <CodeBlock label="DDL" code={suggestion.ddl.join('\n')} />}
      {actions?.ddlOutcomes?.[id] && <DdlOutcomeView outcome={actions.ddlOutcomes[id]} />}
      {suggestion.rewrittenSql && <CodeBlock label="Rewritten SQL" code={suggestion.rewrittenSql} />}
      {suggestion.rewrittenSql && original !== undefined && showDiff && (
        <RewriteDiff
          original={original}
          rewritten={suggestion.rewrittenSql}
          dark={actions?.dark ?? false}
          onApply={actions ? () => actions.onApplyRewrite(itemKey, suggestion.rewrittenSql ?? '') : null}
        />
      )}
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

/** The statement and its rewrite as a read-only diff, with Copy (the rewrite) and Apply. */
function RewriteDiff({
  original,
  rewritten,
  dark,
  onApply,
}: {
  original: string;
  rewritten: string;
  dark: boolean;
  onApply: (() => void) | null;
}) {
  const { state, copy } = useCopy(rewritten);
  return (
    <figure className="code-block">
      <figcaption className="code-block__head">
        <span>Rewrite: original ↔ rewritten</span>
        <span className="suggestion__actions">
          {onApply && (
            <button
              type="button"
              className="button button--small"
              onClick={onApply}
              title="Replace the statement in the editor with this rewrite"
              data-testid="diff-apply"
            >
              Apply
            </button>
          )}
          <button
            type="button"
            className="button button--small"
            onClick={copy}
            aria-label="Copy rewritten SQL"
            data-testid="diff-copy"
          >
            {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
          </button>
        </span>
      </figcaption>
      <DiffView original={original} rewritten={rewritten} dark={dark} label="Original and rewritten SQL" />
    </figure>
  );
}
