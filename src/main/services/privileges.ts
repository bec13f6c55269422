// The account's privileges against what each feature runs: SHOW GRANTS parsed, checked per feature and
// flavor, with the GRANT statement that fixes each gap (used by the profiles' test connection; design note
// in profiles.ts). Pure functions over the grant lines.

import type { ServerInfo } from '../../core/model/server-info.js';
import type { FeaturePrivileges } from '../../shared/api/profiles.js';

/** One `GRANT … ON … TO …` line, parsed. */
export interface Grant {
  privileges: string[];
  /** `*` for all databases / tables. Database names may be LIKE patterns (`db\_%`). */
  database: string;
  table: string;
}

function unquote(name: string): string {
  const trimmed = name.trim();
  if (trimmed.startsWith('`') && trimmed.endsWith('`')) return trimmed.slice(1, -1).replace(/``/g, '`');
  return trimmed;
}

/** Split on commas outside parentheses (column lists). */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

/** `db.tbl` → [db, tbl]; the dot inside backticks does not split. */
function splitObject(object: string): [string, string | undefined] {
  let quoted = false;
  for (let index = 0; index < object.length; index += 1) {
    const char = object[index];
    if (char === '`') quoted = !quoted;
    else if (char === '.' && !quoted) return [object.slice(0, index), object.slice(index + 1)];
  }
  return [object, undefined];
}

/** Parse SHOW GRANTS lines; role grants (no ON) and PROXY lines are skipped (see `hasRoleGrants`). */
export function parseGrants(lines: readonly string[]): Grant[] {
  const grants: Grant[] = [];
  for (const line of lines) {
    const match =
      /^GRANT\s+(.+?)\s+ON\s+(?:(?:TABLE|FUNCTION|PROCEDURE|PACKAGE(?:\s+BODY)?)\s+)?((?:`(?:[^`]|``)*`|[^\s.`]+)(?:\.(?:`(?:[^`]|``)*`|[^\s`]+))?)\s+TO\s/is.exec(
        line.trim(),
      );
    if (!match) continue;
    const privileges = splitTopLevel(match[1]!)
      .map((privilege) =>
        privilege
          .replace(/\(.*\)/s, '')
          .trim()
          .replace(/\s+/g, ' ')
          .toUpperCase(),
      )
      .filter((privilege) => privilege !== 'PROXY' && privilege !== '');
    const [first, second] = splitObject(match[2]!);
    grants.push({
      privileges,
      database: second === undefined ? '*' : unquote(first),
      table: second === undefined ? unquote(first) : unquote(second),
    });
  }
  return grants;
}

/** True when a SHOW GRANTS output grants roles (`GRANT role TO user`, no ON), whose privileges it does not list. */
export function hasRoleGrants(lines: readonly string[]): boolean {
  // Plain string scans: a regex with nested repetition here backtracks exponentially on MySQL 8's
  // long comma-joined dynamic-privilege lines.
  return lines.some((line) => {
    const text = line.trim();
    if (!/^GRANT\s/i.test(text)) return false;
    const to = text.search(/\sTO\s/i);
    return to > 0 && !/\sON\s/i.test(text.slice(0, to));
  });
}

function databaseMatches(pattern: string, database: string): boolean {
  if (pattern === '*') return true;
  let regex = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index]!;
    if (char === '\\' && index + 1 < pattern.length) {
      regex += pattern[index + 1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      index += 1;
    } else if (char === '_') regex += '.';
    else if (char === '%') regex += '.*';
    else regex += char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${regex}$`, 'i').test(database);
}

/** Whether the grants give `privilege` on `database`.`table` (`*` = any table of the database). */
export function hasPrivilege(
  grants: readonly Grant[],
  privilege: string,
  database = '*',
  table = '*',
): boolean {
  return grants.some((grant) => {
    if (
      !grant.privileges.includes(privilege) &&
      !grant.privileges.includes('ALL PRIVILEGES') &&
      !grant.privileges.includes('ALL')
    ) {
      return false;
    }
    if (grant.database === '*') return true;
    if (database === '*' || !databaseMatches(grant.database, database)) return false;
    return grant.table === '*' || (table !== '*' && grant.table.toLowerCase() === table.toLowerCase());
  });
}

/** `'user'@'host'` from CURRENT_USER()'s `user@host`. */
export function quoteAccount(currentUser: string): string {
  const at = currentUser.lastIndexOf('@');
  const user = at < 0 ? currentUser : currentUser.slice(0, at);
  const host = at < 0 ? '%' : currentUser.slice(at + 1);
  const quote = (value: string): string => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  return `${quote(user)}@${quote(host)}`;
}

function quoteName(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

interface Requirement {
  /** Shown in `missing` */
  label: string;
  /** Any of these privileges at this level satisfies it */
  anyOf: string[];
  database?: string;
  table?: string;
}

/** What each feature runs, and the privileges that needs (per flavor). */
export function featureRequirements(
  server: Pick<ServerInfo, 'flavor' | 'capabilities'>,
  database: string | undefined,
  allowWhatIf: boolean,
): { feature: FeaturePrivileges['feature']; label: string; requirements: Requirement[] }[] {
  const mariadb = server.flavor === 'mariadb';
  const db = database ?? '*';
  const onDb = database ? `${quoteName(database)}.*` : '*.*';
  const features: { feature: FeaturePrivileges['feature']; label: string; requirements: Requirement[] }[] = [
    {
      feature: 'advisor',
      label: 'Advisor (schema of the default database)',
      requirements: [{ label: `SELECT ON ${onDb}`, anyOf: ['SELECT'], database: db }],
    },
    {
      feature: 'explain',
      label: 'EXPLAIN (tables and views)',
      requirements: [
        { label: `SELECT ON ${onDb}`, anyOf: ['SELECT'], database: db },
        { label: `SHOW VIEW ON ${onDb}`, anyOf: ['SHOW VIEW'], database: db },
      ],
    },
    {
      feature: 'locks',
      label: server.capabilities.dataLocks
        ? 'Locks (INNODB_TRX, performance_schema.data_locks, metadata_locks)'
        : 'Locks (INNODB_TRX, INNODB_LOCK_WAITS, metadata_locks)',
      requirements: [
        { label: 'PROCESS ON *.*', anyOf: ['PROCESS'] },
        { label: 'SELECT ON performance_schema.*', anyOf: ['SELECT'], database: 'performance_schema' },
      ],
    },
    {
      feature: 'digests',
      label: 'Top queries (performance_schema digests)',
      requirements: [
        {
          label: 'SELECT ON performance_schema.*',
          anyOf: ['SELECT'],
          database: 'performance_schema',
          table: 'events_statements_summary_by_digest',
        },
      ],
    },
    {
      feature: 'slowLogTable',
      label: 'Slow log table (mysql.slow_log)',
      requirements: [
        { label: 'SELECT ON mysql.slow_log', anyOf: ['SELECT'], database: 'mysql', table: 'slow_log' },
      ],
    },
    {
      feature: 'slowLogWindow',
      label: 'Slow-log capture window (SET GLOBAL slow_query_log)',
      requirements: [
        mariadb
          ? { label: 'SUPER ON *.*', anyOf: ['SUPER'] }
          : { label: 'SYSTEM_VARIABLES_ADMIN ON *.*', anyOf: ['SYSTEM_VARIABLES_ADMIN', 'SUPER'] },
        { label: 'SELECT ON mysql.slow_log', anyOf: ['SELECT'], database: 'mysql', table: 'slow_log' },
      ],
    },
    {
      feature: 'kill',
      label: "Kill other users' sessions",
      requirements: [
        mariadb
          ? { label: 'CONNECTION ADMIN ON *.*', anyOf: ['CONNECTION ADMIN', 'SUPER'] }
          : { label: 'CONNECTION_ADMIN ON *.*', anyOf: ['CONNECTION_ADMIN', 'SUPER'] },
      ],
    },
  ];
  if (allowWhatIf) {
    features.push({
      feature: 'whatIf',
      label: 'What-if indexes (sandbox)',
      requirements: [
        { label: `ALTER ON ${onDb}`, anyOf: ['ALTER'], database: db },
        { label: `INDEX ON ${onDb}`, anyOf: ['INDEX'], database: db },
        // ANALYZE TABLE (refreshes statistics after the build) needs SELECT and INSERT.
        { label: `INSERT ON ${onDb}`, anyOf: ['INSERT'], database: db },
      ],
    });
  }
  return features;
}

/** Check grants against every feature; `account` is `'user'@'host'` for the GRANT statements. */
export function checkPrivileges(
  grants: readonly Grant[],
  server: Pick<ServerInfo, 'flavor' | 'capabilities'>,
  options: { database?: string | undefined; allowWhatIf: boolean; account: string },
): FeaturePrivileges[] {
  return featureRequirements(server, options.database, options.allowWhatIf).map(
    ({ feature, label, requirements }) => {
      const missing = requirements.filter(
        (requirement) =>
          !requirement.anyOf.some((privilege) =>
            hasPrivilege(grants, privilege, requirement.database ?? '*', requirement.table ?? '*'),
          ),
      );
      return {
        feature,
        label,
        ok: missing.length === 0,
        missing: missing.map((requirement) => requirement.label),
        grants: missing.map((requirement) => {
          const [privilege, on] = requirement.label.split(' ON ');
          return `GRANT ${privilege} ON ${on} TO ${options.account};`;
        }),
      };
    },
  );
}
