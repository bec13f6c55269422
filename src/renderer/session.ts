// The analysis session: a live connection or an offline target (flavor, version, CREATE TABLE schema).
import type { AnalyzeRequest, OpenResult } from '../shared/api.js';
import { flavorName } from '../core/flavors/names.js';
import type { ServerInfo } from '../core/model/server-info.js';
import type { ProfileView } from '../shared/api/profiles.js';

/** The saved profile a live session was opened from (the sidebar and status bar show it). */
export type LiveProfile = Pick<ProfileView, 'id' | 'name' | 'color' | 'production'>;

/** Flavors a user can pick for offline analysis. */
export type OfflineFlavor = 'mysql' | 'mariadb';

/** What analyses run against. */
export type Session =
  | {
      kind: 'live';
      connectionId: string;
      label: string;
      server: ServerInfo;
      allowWhatIf: boolean;
      /** Set when opened from a saved profile. */
      profile?: LiveProfile;
    }
  | { kind: 'offline'; flavor: OfflineFlavor; version: string; schemaSql: string; demo?: boolean };

/** Default offline versions, the servers the project tests against. */
export const defaultVersions: Record<OfflineFlavor, string> = { mysql: '8.0.33', mariadb: '10.11' };

/** The session a fresh window starts with: offline, MySQL 8.0.33, no schema. */
export function initialSession(): Session {
  return { kind: 'offline', flavor: 'mysql', version: defaultVersions.mysql, schemaSql: '' };
}

/** A live session from a successful `connection.open`. */
export function liveSession(result: OpenResult, allowWhatIf = false, profile?: LiveProfile): Session {
  return {
    kind: 'live',
    connectionId: result.connectionId,
    label: result.label,
    server: result.server,
    allowWhatIf,
    ...(profile ? { profile } : {}),
  };
}

/** The name to type before a write when the session's profile is marked production, else null. */
export function productionName(session: Session): string | null {
  return session.kind === 'live' && session.profile?.production ? session.profile.name : null;
}

/** The workspace profile of a session: the connection label, `offline`, or `demo` for Try it. */
export function profileId(session: Session): string {
  if (session.kind === 'live') return session.label;
  return session.demo ? 'demo' : 'offline';
}

/** `MySQL`, `MariaDB`, `Percona Server` (shared with the core). */
export { flavorName };

/** `MySQL 8.0.33` for the session's target. */
export function targetLabel(session: Session): string {
  return session.kind === 'live'
    ? `${flavorName(session.server.flavor)} ${session.server.version}`
    : `${flavorName(session.flavor)} ${session.version}`;
}

/** Number of CREATE TABLE statements in an offline schema (a hint for the status bar, not a parser). */
export function countSchemaTables(schemaSql: string): number {
  return schemaSql.match(/\bcreate\s+(?:temporary\s+)?table\b/gi)?.length ?? 0;
}

/** The `analyze.run` request for this session. */
export function analyzeRequest(session: Session, sql: string): AnalyzeRequest {
  if (session.kind === 'live') return { sql, connectionId: session.connectionId };
  const request: AnalyzeRequest = { sql, target: { flavor: session.flavor, version: session.version } };
  if (session.schemaSql.trim() !== '') request.schemaSql = session.schemaSql;
  return request;
}
