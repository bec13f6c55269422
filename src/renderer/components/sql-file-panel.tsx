// The "SQL file" panel (Large file analysis): choose a SQL file of any size, follow its analysis by main
// (progress bar, counts, Cancel), then the findings grouped by rule, each with its line and an excerpt of
// its statement, in a virtualised list; a click opens that one statement in a new editor tab.
import { useCallback, useEffect, useMemo, useRef, useState, type UIEvent } from 'react';
import { rules as registry } from '../../core/rules/index.js';
import type { SqlFileError, SqlFileFinding, SqlFileReply } from '../../shared/api/sql-file.js';
import type { AdvisorApi } from '../../shared/api.js';
import type { Listen } from '../../shared/events.js';
import { bytesText, count, useSqlFile, type SqlFileContext } from '../state/sql-file.js';
import { ErrorBox, toShownError, type ShownError } from './error-box.js';
import { SeverityIcon } from './findings-panel.js';

/** Height of one row of the list (px); rows are fixed-height so only the visible ones are rendered. */
const ROW = 46;
/** Rows rendered above and below the visible ones. */
const OVERSCAN = 12;

type Row =
  | {
      kind: 'rule';
      key: string;
      rule: string;
      severity: SqlFileFinding['severity'];
      count: number;
      shown: number;
      open: boolean;
    }
  | { kind: 'finding'; key: string; finding: SqlFileFinding }
  | { kind: 'errors'; key: string; count: number; shown: number; open: boolean }
  | { kind: 'error'; key: string; error: SqlFileError };

export function SqlFilePanel({
  api,
  listen,
  context,
  where,
  onOpenStatement,
}: {
  api: AdvisorApi;
  listen: Listen;
  /** The schema, target and rules of the session, as analyze.run gets them. */
  context: () => SqlFileContext;
  /** What the analysis runs against, for the intro (`MySQL 8.0.33, schema file shop.sql`). */
  where: string;
  /** Open one statement's text in a new editor tab. */
  onOpenStatement(title: string, sql: string): void;
}) {
  const file = useSqlFile(api, listen);
  const { state } = file;
  const [openError, setOpenError] = useState<ShownError | null>(null);
  const busy = state.status === 'running' || state.status === 'uploading';

  const open = useCallback(
    (index: number, line: number) => {
      setOpenError(null);
      file.statement(index).then(
        (statement) =>
          onOpenStatement(`${state.status === 'done' ? state.reply.name : 'file'}:${line}`, statement.sql),
        (caught: unknown) => setOpenError(toShownError(caught)),
      );
    },
    [file, onOpenStatement, state],
  );

  return (
    <div className="sqlfile" data-testid="sqlfile">
      <div className="sqlfile__toolbar">
        <button
          type="button"
          className="button button--small"
          disabled={busy}
          onClick={() => void file.choose(context())}
          data-testid="sqlfile-choose"
          title="Pick a SQL file; it is read where it lies, statement by statement, never loaded into the editor"
        >
          Analyse SQL file…
        </button>
        <span className="sqlfile__where">Against {where}</span>
        {state.status === 'done' && (
          <button
            type="button"
            className="button button--small"
            onClick={file.clear}
            data-testid="sqlfile-clear"
          >
            Clear
          </button>
        )}
      </div>
      {state.status === 'idle' && (
        <div className="empty-state" data-testid="sqlfile-empty">
          <p className="empty-state__title">Large file analysis</p>
          <p>
            Analyse a SQL file of any size — a mysqldump or mariadb-dump, a general or query log, a migration
            script — with the current schema, server version and rules. The file is streamed statement by
            statement with a progress bar; only the findings come back, each with its line and the start of
            its statement.
          </p>
        </div>
      )}
      {state.status === 'uploading' && (
        <Progress
          label={`Uploading ${state.name}`}
          line={`Uploading ${state.name}: ${bytesText(state.sent, state.total)}`}
          value={state.sent}
          max={state.total}
          onCancel={file.cancel}
        />
      )}
      {state.status === 'running' && (
        <Progress
          label={`Analysing ${state.name}`}
          line={`Analysing ${state.name}: ${bytesText(state.bytesRead, state.totalBytes)} · ${count(state.statements, 'statement')} · ${count(state.findings, 'finding')}${state.errors > 0 ? ` · ${count(state.errors, 'error')}` : ''}`}
          value={state.bytesRead}
          max={state.totalBytes}
          onCancel={file.cancel}
        />
      )}
      {state.status === 'failed' && (
        <div className="panels__error">
          <ErrorBox error={state.error} testId="sqlfile-error" />
          <p className="sqlfile__note">
            Nothing was analysed. Choose the file again once the problem is fixed.
          </p>
        </div>
      )}
      {state.status === 'cancelled' && (
        <p className="sqlfile__note" data-testid="sqlfile-cancelled">
          The upload of {state.name} was cancelled; nothing was analysed.
        </p>
      )}
      {openError && <ErrorBox error={openError} testId="sqlfile-open-error" />}
      {state.status === 'done' && <Results reply={state.reply} onOpen={open} />}
    </div>
  );
}

function Progress({
  label,
  line,
  value,
  max,
  onCancel,
}: {
  label: string;
  line: string;
  value: number;
  max: number;
  onCancel(): void;
}) {
  return (
    <div className="sqlfile__progress" data-testid="sqlfile-progress" aria-busy="true">
      <progress max={max || 1} value={value} aria-label={label} />
      <span data-testid="sqlfile-progress-text">{line}</span>
      <button type="button" className="button button--small" onClick={onCancel} data-testid="sqlfile-cancel">
        Cancel
      </button>
    </div>
  );
}

function summary(reply: SqlFileReply): string {
  const parts = [
    count(reply.statements, 'statement'),
    `${count(reply.findings, 'finding')}${reply.rules.length > 0 ? ` (${count(reply.rules.length, 'rule')})` : ''}`,
  ];
  if (reply.errorCount > 0) parts.push(count(reply.errorCount, 'statement error'));
  return `${reply.name}: ${parts.join(', ')} · ${(reply.bytesRead / 1_048_576).toFixed(1)} MB in ${(reply.elapsedMs / 1000).toFixed(1)} s · ${reply.server.flavor} ${reply.server.version}`;
}

function Results({ reply, onOpen }: { reply: SqlFileReply; onOpen(index: number, line: number): void }) {
  const [closed, setClosed] = useState<ReadonlySet<string>>(new Set());
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  const list = useRef<HTMLDivElement | null>(null);
  const toggle = (key: string) =>
    setClosed((previous) => {
      const next = new Set(previous);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const rows = useMemo(() => {
    const out: Row[] = [];
    for (const group of reply.rules) {
      const key = `rule:${group.rule}`;
      const open = !closed.has(key);
      out.push({
        kind: 'rule',
        key,
        rule: group.rule,
        severity: group.severity,
        count: group.count,
        shown: group.findings.length,
        open,
      });
      if (open)
        for (const finding of group.findings)
          out.push({
            kind: 'finding',
            key: `${key}:${finding.statement}:${finding.line}:${finding.column}`,
            finding,
          });
    }
    if (reply.errorCount > 0) {
      const open = !closed.has('errors');
      out.push({ kind: 'errors', key: 'errors', count: reply.errorCount, shown: reply.errors.length, open });
      if (open)
        for (const error of reply.errors) out.push({ kind: 'error', key: `error:${error.statement}`, error });
    }
    return out;
  }, [reply, closed]);
  const first = Math.max(0, Math.floor(scrollTop / ROW) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / ROW) + OVERSCAN);
  // The list's height: measured, and again when the panel is resized.
  useEffect(() => {
    const element = list.current;
    if (!element) return;
    const measure = () => setHeight(element.clientHeight || 400);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [rows.length === 0]);
  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    setScrollTop(event.currentTarget.scrollTop);
    setHeight(event.currentTarget.clientHeight || 400);
  };

  return (
    <div className="sqlfile__results">
      <p className="sqlfile__summary" data-testid="sqlfile-summary">
        {summary(reply)}
      </p>
      {!reply.complete && (
        <p className="sqlfile__note sqlfile__note--warning" data-testid="sqlfile-partial">
          Cancelled after {bytesText(reply.bytesRead, reply.totalBytes)}: the findings below are those of the
          first {count(reply.statements + reply.errorCount, 'statement')}; the rest of the file was not
          analysed.
        </p>
      )}
      {rows.length === 0 ? (
        <div className="empty-state" data-testid="sqlfile-no-findings">
          {reply.statements === 0 ? (
            <>
              <p className="empty-state__title">No statements</p>
              <p>
                {reply.complete
                  ? `${reply.name} holds no SQL statement (only comments or white space).`
                  : 'The analysis was cancelled before the first statement ended.'}
              </p>
            </>
          ) : (
            <>
              <p className="empty-state__title">No findings</p>
              <p>
                {count(reply.statements, 'statement')} analysed{reply.complete ? '' : ' before the cancel'},
                none with a finding of the enabled rules.
              </p>
            </>
          )}
        </div>
      ) : (
        <div
          className="sqlfile__list"
          ref={list}
          onScroll={onScroll}
          role="list"
          aria-label="Findings of the file"
          data-testid="sqlfile-list"
        >
          <div style={{ height: rows.length * ROW, position: 'relative' }}>
            {rows.slice(first, last).map((row, offset) => (
              <div
                key={row.key}
                role="listitem"
                className={`sqlfile__row sqlfile__row--${row.kind}`}
                style={{ position: 'absolute', top: (first + offset) * ROW, height: ROW, left: 0, right: 0 }}
              >
                <RowView row={row} onToggle={toggle} onOpen={onOpen} />
              </div>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}

function RowView({
  row,
  onToggle,
  onOpen,
}: {
  row: Row;
  onToggle(key: string): void;
  onOpen(index: number, line: number): void;
}) {
  switch (row.kind) {
    case 'rule':
      return (
        <button
          type="button"
          className="sqlfile__group"
          aria-expanded={row.open}
          onClick={() => onToggle(row.key)}
          data-testid="sqlfile-rule"
          data-rule={row.rule}
        >
          <span aria-hidden="true">{row.open ? '▾' : '▸'}</span>
          <SeverityIcon severity={row.severity} />
          <strong>{row.rule}</strong>
          <span className="sqlfile__rule-name">{registry[row.rule]?.meta.name ?? ''}</span>
          <span className="badge badge--caution" data-testid="sqlfile-rule-count">
            {row.count.toLocaleString('en-US')}
          </span>
          {row.shown < row.count && (
            <span className="sqlfile__more">first {row.shown.toLocaleString('en-US')} listed</span>
          )}
        </button>
      );
    case 'finding':
      return (
        <button
          type="button"
          className="sqlfile__item"
          onClick={() => onOpen(row.finding.statement, row.finding.statementLine)}
          title="Open this statement in a new editor tab"
          data-testid="sqlfile-finding"
          data-rule={row.finding.rule}
          data-line={row.finding.line}
        >
          <span className="sqlfile__line" data-testid="sqlfile-line">
            line {row.finding.line.toLocaleString('en-US')}
          </span>
          <span className="sqlfile__message">{row.finding.message}</span>
          <code className="sqlfile__excerpt">{row.finding.excerpt}</code>
        </button>
      );
    case 'errors':
      return (
        <button
          type="button"
          className="sqlfile__group"
          aria-expanded={row.open}
          onClick={() => onToggle(row.key)}
          data-testid="sqlfile-errors"
        >
          <span aria-hidden="true">{row.open ? '▾' : '▸'}</span>
          <SeverityIcon severity="error" />
          <strong>Not analysed</strong>
          <span className="sqlfile__rule-name">syntax errors and statements beyond the limits</span>
          <span className="badge badge--caution">{row.count.toLocaleString('en-US')}</span>
          {row.shown < row.count && (
            <span className="sqlfile__more">first {row.shown.toLocaleString('en-US')} listed</span>
          )}
        </button>
      );
    case 'error':
      return (
        <button
          type="button"
          className="sqlfile__item"
          onClick={() => onOpen(row.error.statement, row.error.line)}
          title="Open this statement in a new editor tab"
          data-testid="sqlfile-error-item"
          data-line={row.error.line}
        >
          <span className="sqlfile__line">line {row.error.line.toLocaleString('en-US')}</span>
          <span className="sqlfile__message">{row.error.message}</span>
          <code className="sqlfile__excerpt">{row.error.excerpt}</code>
        </button>
      );
  }
}
