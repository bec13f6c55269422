// sql_mode strings: parsing, expansion of combination modes, validation per server, defaults and predicted errors.

import { capabilitiesFor, type Flavor } from '../flavors/capabilities.js';
import { parseVersion, satisfies, type Version } from '../flavors/version.js';
import type { PredictedError } from '../model/report.js';
import type { ServerInfo } from '../model/server-info.js';
import {
  DEFAULT_SQL_MODES,
  ERRORS,
  MODES,
  type DefaultSqlMode,
  type ModeFamily,
  type ModeInfo,
  type VersionRange,
} from './data.js';

/** The sql_mode family of a flavor (Percona Server behaves as MySQL). */
export function modeFamily(flavor: Flavor): ModeFamily {
  return flavor === 'mariadb' ? 'mariadb' : 'mysql';
}

function toVersion(version: Version | string): Version {
  const parsed = typeof version === 'string' ? parseVersion(version) : version;
  if (!parsed) throw new Error(`Unrecognised server version: ${String(version)}`);
  return parsed;
}

/** True when a version lies in a half-open range. */
export function inRange(version: Version | string, range: VersionRange): boolean {
  const parsed = toVersion(version);
  return (
    (range.from === undefined || satisfies(parsed, `>=${range.from}`)) &&
    (range.to === undefined || satisfies(parsed, `<${range.to}`))
  );
}

/** The default sql_mode row for a server (never undefined: the table covers every version). */
export function defaultSqlModeEntry(flavor: Flavor, version: Version | string): DefaultSqlMode {
  const family = modeFamily(flavor);
  const entry = DEFAULT_SQL_MODES.find((row) => row.family === family && inRange(version, row.range));
  if (!entry) throw new Error(`No default sql_mode known for ${flavor} ${String(version)}`);
  return entry;
}

/** The compiled default sql_mode of a server, as `SELECT @@GLOBAL.sql_mode` prints it. */
export function defaultSqlMode(flavor: Flavor, version: Version | string): string {
  return defaultSqlModeEntry(flavor, version).modes.join(',');
}

/** Build a ServerInfo for offline analysis from a flavor and version only. */
export function offlineServerInfo(flavor: Flavor, version: string): ServerInfo {
  // The version's compiled default sql_mode (knowledge base in data.ts).
  const modes = defaultSqlMode(flavor, version);
  return {
    flavor,
    version,
    versionString: version,
    versionComment: '',
    sqlMode: { session: modes, global: modes },
    capabilities: { ...capabilitiesFor(flavor, version), performanceSchema: flavor !== 'mariadb' },
    database: null,
  };
}

/** Split a sql_mode string into upper-case names (empty parts dropped). */
export function parseSqlMode(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim().toUpperCase())
    .filter((part) => part.length > 0);
}

/** The mode's data, by name (case-insensitive). */
export function modeInfo(name: string): ModeInfo | undefined {
  const upper = name.toUpperCase();
  return MODES.find((mode) => mode.name === upper);
}

/** Whether a mode exists on a server: `valid`, `removed` (existed in an older version) or `unknown`. */
export function modeStatus(
  name: string,
  flavor: Flavor,
  version: Version | string,
): 'valid' | 'removed' | 'unknown' {
  const info = modeInfo(name);
  const range = info?.availability[modeFamily(flavor)];
  if (!info || !range) return 'unknown';
  if (inRange(version, range)) return 'valid';
  return range.to !== undefined && !inRange(version, { to: range.to }) ? 'removed' : 'unknown';
}

/** The mode names a server accepts, in bit order. */
export function validModes(flavor: Flavor, version: Version | string): string[] {
  return MODES.filter((mode) => modeStatus(mode.name, flavor, version) === 'valid').map((mode) => mode.name);
}

/** Result of checking a user-given sql_mode against a server. */
export interface ModeValidation {
  /** Normalized (expanded, bit-ordered) sql_mode when every name is valid. */
  normalized: string;
  unknown: string[];
  removed: string[];
}

/**
 * Check and normalize a sql_mode for a server: combination modes are expanded as the server does,
 * names are put in bit order. Unknown or removed names make the server fail with ERROR 1231.
 */
export function validateSqlMode(text: string, flavor: Flavor, version: Version | string): ModeValidation {
  const unknown: string[] = [];
  const removed: string[] = [];
  for (const name of parseSqlMode(text)) {
    const status = modeStatus(name, flavor, version);
    if (status === 'unknown') unknown.push(name);
    else if (status === 'removed') removed.push(name);
  }
  return { normalized: expandSqlMode(text, flavor).join(','), unknown, removed };
}

/** Expand combination modes (ANSI, TRADITIONAL …) and order by bit, as the server stores them. */
export function expandSqlMode(text: string | readonly string[], flavor: Flavor): string[] {
  const family = modeFamily(flavor);
  const names = new Set<string>();
  for (const name of typeof text === 'string' ? parseSqlMode(text) : text.map((n) => n.toUpperCase())) {
    names.add(name);
    for (const part of modeInfo(name)?.expands?.[family] ?? []) names.add(part);
  }
  const bitOf = (name: string): number => modeInfo(name)?.bit ?? Number.MAX_SAFE_INTEGER;
  return [...names].sort((a, b) => bitOf(a) - bitOf(b) || a.localeCompare(b));
}

/** A parsed, expanded sql_mode with the questions rules ask of it. */
export interface SqlModeSet {
  readonly modes: ReadonlySet<string>;
  has(mode: string): boolean;
  /** STRICT_TRANS_TABLES or STRICT_ALL_TABLES. */
  readonly strict: boolean;
}

/** Parse and expand a session sql_mode for rule use. */
export function sqlModeSet(text: string, flavor: Flavor): SqlModeSet {
  const modes = new Set(expandSqlMode(text, flavor));
  return {
    modes,
    has: (mode) => modes.has(mode.toUpperCase()),
    strict: modes.has('STRICT_TRANS_TABLES') || modes.has('STRICT_ALL_TABLES'),
  };
}

/** Error codes the MOD rules predict. */
export type PredictedCode = keyof typeof ERRORS;

/** Build a predicted error with the server's wording for the flavor. */
export function predictError(
  code: PredictedCode,
  flavor: Flavor,
  data: Record<string, string | number> = {},
  warningOnly = false,
): PredictedError {
  const info = ERRORS[code];
  const messages = info.message as Partial<Record<ModeFamily, string>> & { mysql: string };
  const template = messages[modeFamily(flavor)] ?? messages.mysql;
  const message = template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_m, key: string) => String(data[key] ?? ''));
  return { code: info.code, sqlState: info.sqlState, message, ...(warningOnly ? { warningOnly: true } : {}) };
}

/**
 * The session sql_mode after a statement, when it is `SET [SESSION] sql_mode = '…'` (or `@@sql_mode`,
 * `@@session.sql_mode`) with a literal the server accepts; undefined for anything else (the mode is
 * unchanged, also when the server would reject the value with ERROR 1231).
 */
export function sessionSqlModeAfter(
  ast: Record<string, unknown>,
  flavor: Flavor,
  version: string,
): string | undefined {
  if (ast.type !== 'set' || !Array.isArray(ast.expr)) return undefined;
  if (typeof ast.keyword === 'string' && ast.keyword.toUpperCase() === 'GLOBAL') return undefined;
  let result: string | undefined;
  for (const item of ast.expr as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { left, right } = item as {
      left?: { name?: unknown; members?: unknown };
      right?: { type?: unknown; value?: unknown };
    };
    const name = String(left?.name ?? '').toLowerCase();
    const members = Array.isArray(left?.members) ? left.members.map((m) => String(m).toLowerCase()) : [];
    const isSession =
      (name === 'sql_mode' && members.length === 0) ||
      (name === 'session' && members.length === 1 && members[0] === 'sql_mode');
    if (!isSession) continue;
    if (typeof right?.value !== 'string' || !/quote_string|^string$/.test(String(right.type))) continue;
    const validation = validateSqlMode(right.value, flavor, version);
    if (validation.unknown.length === 0 && validation.removed.length === 0) result = validation.normalized;
  }
  return result;
}
