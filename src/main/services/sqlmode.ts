// Reads a live server's sql_mode (GLOBAL and SESSION) and the variables the sql_mode view compares with defaults.

import type { Connection, RowDataPacket } from 'mysql2/promise';
import { formatVersion, parseVersion } from '../../core/flavors/index.js';
import { VARIABLE_DEFAULTS } from '../../core/sqlmode/data.js';
import { buildSqlModeView, type SqlModeView } from '../../core/sqlmode/views.js';
import { detectFlavor } from './server-info.js';

/** Read the server view of sql_mode and default-sensitive variables over an open connection. */
export async function readSqlModeView(connection: Connection): Promise<SqlModeView> {
  const [rows] = await connection.query<RowDataPacket[]>(
    'SELECT VERSION() AS version, @@version_comment AS comment, @@GLOBAL.sql_mode AS global_mode, @@SESSION.sql_mode AS session_mode',
  );
  const row = rows[0] ?? ({} as RowDataPacket);
  const versionString = String(row.version ?? '');
  const parsed = parseVersion(versionString);
  if (!parsed) throw new Error(`Unrecognised server version '${versionString}'`);
  const names = VARIABLE_DEFAULTS.map((variable) => variable.name);
  const [variables] = await connection.query<RowDataPacket[]>(
    `SHOW GLOBAL VARIABLES WHERE Variable_name IN (${names.map(() => '?').join(',')})`,
    names,
  );
  return buildSqlModeView({
    flavor: detectFlavor(versionString, String(row.comment ?? '')),
    version: formatVersion(parsed),
    globalSqlMode: String(row.global_mode ?? ''),
    sessionSqlMode: String(row.session_mode ?? ''),
    variables: Object.fromEntries(
      variables.map((variable) => [
        String(variable.Variable_name).toLowerCase(),
        String(variable.Value ?? ''),
      ]),
    ),
  });
}
