// The status bar: what analyses run against, the read-only badge, cursor position and the last analysis.
import { countSchemaTables, targetLabel, type Session } from '../session.js';

/** Props of {@link StatusBar}. */
export interface StatusBarProps {
  session: Session;
  cursor: { line: number; column: number };
  summary: string;
}

/** Bottom bar; the connection part opens the dialog. */
export function StatusBar({ session, cursor, summary }: StatusBarProps) {
  const tables = session.kind === 'offline' ? countSchemaTables(session.schemaSql) : 0;
  return (
    <footer className="status-bar" data-testid="status-bar">
      <span className={`status-bar__dot status-bar__dot--${session.kind}`} aria-hidden="true" />
      <span data-testid="status-connection">
        {session.kind === 'live'
          ? `${session.label} — ${targetLabel(session)}`
          : `offline — ${targetLabel(session)}`}
      </span>
      {session.kind === 'offline' && (
        <span className="status-bar__muted">
          {tables === 0 ? 'no schema' : tables === 1 ? '1 table' : `${tables} tables`}
        </span>
      )}
      <span
        className="badge badge--readonly"
        data-testid="readonly-badge"
        title="Sargable only reads: analysis never changes data or settings on the server."
      >
        read-only
      </span>
      {session.kind === 'live' && session.allowWhatIf && (
        <span
          className="badge badge--caution"
          data-testid="what-if-badge"
          title="This connection may build what-if indexes after each confirmation (opened as a sandbox)."
        >
          what-if allowed
        </span>
      )}
      {session.kind === 'offline' && session.demo && (
        <span className="badge badge--ok" title="The Try it demo: the seeds' schema, offline">
          demo
        </span>
      )}
      <span className="status-bar__spacer" />
      {summary && <span className="status-bar__muted">{summary}</span>}
      <span className="status-bar__muted">
        Ln {cursor.line}, Col {cursor.column}
      </span>
    </footer>
  );
}
