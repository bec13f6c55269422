// The analysis session: a live connection or an offline target (flavor, version, CREATE TABLE schema).
import { loadSchemaText, type SkippedStatement } from '../core/schema/ddl-load.js';
import type { AnalyzeRequest, OpenResult } from '../shared/api.js';
import { flavorName } from '../core/flavors/names.js';
import type { ServerInfo } from '../core/model/server-info.js';
import type { ProfileView } from '../shared/api/profiles.js';
import type { SchemaFileReply } from '../shared/api/schema.js';

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
  | {
      kind: 'offline';
      flavor: OfflineFlavor;
      version: string;
      schemaSql: string;
      /** A schema file the service loaded (schema.loadFile): used instead of schemaSql. */
      schemaFile?: SchemaFileReply;
      demo?: boolean;
    };

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

/** What the schema loader makes of an offline schema (the status bar's "16 tables, skipped 1"). */
export interface SchemaCount {
  tables: number;
  views: number;
  skipped: SkippedStatement[];
}

let lastCount: { key: string; count: SchemaCount } | null = null;

/** Loads the offline schema as analyses will (memoized: the status bar re-renders on every keystroke). */
export function schemaCount(schemaSql: string, flavor: OfflineFlavor): SchemaCount {
  const key = `${flavor}\u0000${schemaSql}`;
  if (lastCount?.key === key) return lastCount.count;
  const { summary } = loadSchemaText(schemaSql, { flavor: flavor === 'mariadb' ? 'mariadb' : 'mysql' });
  const count = { tables: summary.tables, views: summary.views, skipped: summary.skipped };
  lastCount = { key, count };
  return count;
}

/** Number of tables the offline schema loads (views not counted). */
export function countSchemaTables(schemaSql: string, flavor: OfflineFlavor = 'mysql'): number {
  return schemaSql.trim() === '' ? 0 : schemaCount(schemaSql, flavor).tables;
}

/** `16 tables, 4 views, skipped 1` for the status bar; `no schema` without one. */
export function schemaCountLabel(schemaSql: string, flavor: OfflineFlavor): { text: string; title?: string } {
  if (schemaSql.trim() === '') return { text: 'no schema' };
  const { tables, views, skipped } = schemaCount(schemaSql, flavor);
  const parts = [tables === 1 ? '1 table' : `${tables} tables`];
  if (views > 0) parts.push(views === 1 ? '1 view' : `${views} views`);
  if (skipped.length > 0) parts.push(`skipped ${skipped.length}`);
  return {
    text: parts.join(', '),
    ...(skipped.length > 0
      ? {
          title: skipped
            .slice(0, 20)
            .map((entry) => `line ${entry.line}: ${entry.statement}: ${entry.reason}`)
            .join('\n'),
        }
      : {}),
  };
}

/** The status bar's schema label of an offline session: a loaded schema file's counts, or the pasted text's. */
export function sessionSchemaLabel(session: Extract<Session, { kind: 'offline' }>): {
  text: string;
  title?: string;
} {
  const file = session.schemaFile;
  if (!file) return schemaCountLabel(session.schemaSql, session.flavor);
  const parts = [file.tables === 1 ? '1 table' : `${file.tables} tables`];
  if (file.views > 0) parts.push(file.views === 1 ? '1 view' : `${file.views} views`);
  if (file.skippedCount > 0) parts.push(`skipped ${file.skippedCount}`);
  const skipped = file.skipped
    .slice(0, 20)
    .map((entry) => `line ${entry.line}: ${entry.statement}: ${entry.reason}`);
  return { text: parts.join(', '), title: [file.name, ...skipped].join('\n') };
}

/** The `analyze.run` request for this session. */
export function analyzeRequest(session: Session, sql: string): AnalyzeRequest {
  if (session.kind === 'live') return { sql, connectionId: session.connectionId };
  const request: AnalyzeRequest = { sql, target: { flavor: session.flavor, version: session.version } };
  if (session.schemaFile) request.schemaId = session.schemaFile.schemaId;
  else if (session.schemaSql.trim() !== '') request.schemaSql = session.schemaSql;
  return request;
}
