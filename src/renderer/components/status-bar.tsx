// The status bar: what analyses run against, the read-only badge, cursor position and the last analysis.
import type { ConnectionStatus } from '../../shared/api/connection-status.js';
import { describeLink } from '../link-status.js';
import { sessionSchemaLabel, targetLabel, type Session } from '../session.js';

/** Props of {@link StatusBar}. */
export interface StatusBarProps {
  session: Session;
  cursor: { line: number; column: number };
  summary: string;
  /** The live connection's reconnect state (connection.status); null offline or before the first answer. */
  link?: ConnectionStatus | null;
}

/** Bottom bar; the connection part opens the dialog. */
export function StatusBar({ session, cursor, summary, link = null }: StatusBarProps) {
  const schemaLabel = session.kind === 'offline' ? sessionSchemaLabel(session) : null;
  const linkText = session.kind === 'live' && link ? describeLink(link) : null;
  const profile = session.kind === 'live' ? session.profile : undefined;
  return (
    <footer className="status-bar" data-testid="status-bar">
      <span
        className={`status-bar__dot status-bar__dot--${linkText && linkText.phase !== 'connected' ? linkText.phase : session.kind}`}
        aria-hidden="true"
      />
      {profile && profile.color !== 'none' && (
        <span
          className={`color-tag color-tag--${profile.color}`}
          title={`Profile color: ${profile.color}`}
          aria-hidden="true"
        />
      )}
      <span data-testid="status-connection">
        {session.kind === 'live'
          ? `${session.label} — ${targetLabel(session)}`
          : `offline — ${targetLabel(session)}`}
      </span>
      {linkText && (
        <span
          className={`status-bar__link status-bar__link--${linkText.phase}`}
          data-testid="status-link"
          title={
            link && link.reconnects > 0
              ? `Reconnected ${link.reconnects === 1 ? 'once' : `${link.reconnects} times`} since connecting`
              : undefined
          }
        >
          {linkText.text}
        </span>
      )}
      {profile?.production && (
        <span
          className="badge badge--production"
          data-testid="production-badge"
          title="This profile is marked as production: every write asks you to type its name."
        >
          production
        </span>
      )}
      {session.kind === 'offline' && schemaLabel && (
        <span
          className={`status-bar__muted${schemaLabel?.title ? ' status-bar__warning' : ''}`}
          data-testid="status-schema"
          title={schemaLabel?.title}
        >
          {schemaLabel?.text}
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
