// Detects flavor, version, modes and capabilities of a live server into one ServerInfo.

import type { Connection, RowDataPacket } from 'mysql2/promise';
import { capabilitiesFor, parseVersion, formatVersion, type Flavor } from '../../core/flavors/index.js';
import type { ServerInfo } from '../../core/model/server-info.js';
import { CAPTURE_MARKER } from './own-statements.js';

/** Decide the flavor from VERSION() and @@version_comment. */
export function detectFlavor(versionString: string, versionComment: string): Flavor {
  const text = `${versionString} ${versionComment}`.toLowerCase();
  if (text.includes('mariadb')) return 'mariadb';
  if (text.includes('percona')) return 'percona';
  return 'mysql';
}

/** Read what the advisor needs to know about the server, in one round trip. */
export async function detectServerInfo(connection: Connection): Promise<ServerInfo> {
  const [rows] = await connection.query<RowDataPacket[]>(
    `SELECT ${CAPTURE_MARKER} VERSION() AS version, @@version_comment AS comment, @@SESSION.sql_mode AS session_mode, @@GLOBAL.sql_mode AS global_mode, @@performance_schema AS ps, DATABASE() AS db`,
  );
  const row: RowDataPacket = rows[0] ?? ({} as RowDataPacket);
  const versionString = String(row.version ?? '');
  const versionComment = String(row.comment ?? '');
  const flavor = detectFlavor(versionString, versionComment);
  const parsed = parseVersion(versionString);
  if (!parsed) throw new Error(`Unrecognised server version '${versionString}'`);
  const version = formatVersion(parsed);
  return {
    flavor,
    version,
    versionString,
    versionComment,
    sqlMode: { session: String(row.session_mode ?? ''), global: String(row.global_mode ?? '') },
    capabilities: { ...capabilitiesFor(flavor, parsed), performanceSchema: Number(row.ps) === 1 },
    database: row.db === null || row.db === undefined ? null : String(row.db),
  };
}
