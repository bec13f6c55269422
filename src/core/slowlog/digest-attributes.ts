// The digest's attribute table: how each slow-log property is treated, and the value readers.
/*
 * Design note
 * -----------
 * pt-query-digest's EventAggregator fixes an attribute's type by its first value ever seen
 * (number → num, `Yes`/`No` → bool, else string); `Killed` is forced to bool. `ts`, `db`,
 * `Schema`, `user` and `host` are special (inherited, or kept as distinct values), the
 * `--ignore-attributes` defaults are ignored, and by default only the attributes some result
 * reports are aggregated ({@link REPORTED_ATTRIBUTES}, plus the ranking attribute).
 *
 * Attribute lines of one log repeat a few shapes; `compileTemplate` turns a shape into one regex
 * that captures every value the digest reads (see `readAttributeLine` in digest-event.ts). Plain
 * decimals are parsed in place (`m / 10^k`, exact for up to 15 digits).
 */
import type { AttributeType } from './digest-types.js';

/** How the digest treats a property name. */
export const enum Kind {
  Ignored = 0,
  Ts = 1,
  Db = 2,
  Schema = 3,
  User = 4,
  Host = 5,
  Attribute = 6,
}

export interface Attribute {
  name: string;
  kind: Kind;
  bucketed: boolean;
  /** Its count of values above zero is read (see POSITIVE_COUNTED). */
  countsPositive: boolean;
  adminZeroed: boolean;
  /** Kept in the global totals too (only the ones the result reports). */
  global: boolean;
  /** Fixed by the first value ever seen (pt's EventAggregator), or forced. */
  type: AttributeType | undefined;
  /** `name:`, to confirm a predicted name in place. */
  nameColon: string;
  /** The attribute that followed this one last time on an attribute line, or -1. */
  next: number;
}

// pt-query-digest's --ignore-attributes default, plus the ones we report separately.
export const IGNORED = new Set([
  'arg',
  'cmd',
  'insert_id',
  'ip',
  'port',
  'Thread_id',
  'timestamp',
  'exptime',
  'flags',
  'key',
  'res',
  'val',
  'server_id',
  'offset',
  'end_log_pos',
  'Xid',
  'bytes',
]);
export const SPECIAL: Record<string, Kind> = {
  ts: Kind.Ts,
  db: Kind.Db,
  Schema: Kind.Schema,
  user: Kind.User,
  host: Kind.Host,
};
export const FORCED_TYPE: Record<string, AttributeType> = { Killed: 'bool' };
export const BUCKETED = new Set([
  'Query_time',
  'Lock_time',
  'Rows_sent',
  'Rows_examined',
  'Rows_affected',
  'Bytes_sent',
]);
/**
 * The attributes aggregated by default: what the results report (the Query_time, Lock_time and
 * Rows_* metrics, and the fields {@link ExecutionSummary} reads).
 */
export const REPORTED_ATTRIBUTES: readonly string[] = Object.freeze([
  'Query_time',
  'Lock_time',
  'Rows_sent',
  'Rows_examined',
  'Rows_affected',
  'Created_tmp_tables',
  'Created_tmp_disk_tables',
  'Sort_scan_count',
  'Sort_range_count',
  'Read_rnd_next',
  'Tmp_tables',
  'Tmp_disk_tables',
  'Tmp_table',
  'Tmp_table_on_disk',
  'Filesort',
  'Full_scan',
  'Full_join',
]);
/** Attributes whose count of values above zero a result reads (`ExecutionSummary.fullScans`). */
export const POSITIVE_COUNTED = new Set(['Read_rnd_next']);
export const GLOBAL_METRICS = new Set(['Query_time', 'Lock_time', 'Rows_sent', 'Rows_examined']);
export const ADMIN_ZEROED = new Set(['Rows_sent', 'Rows_examined', 'Rows_read', 'Rows_affected']);
export const NUMBER_VALUE = /^(?:\d+|[+-]?(?:(?=\d|[.])\d+(?:[.])\d{0,})(?:E[+-]?\d+)?)$/i;
export const PLAIN_NUMBER = /^\d+(?:\.\d+)?$/;
export const QUERY_TIME_PREFIX = /^(\d+(?:\.\d+)?)/;
export const PERL_NUMBER = /^[ \t\n\r\f\v]*([+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?))/;
const MYSQL_TS = /^(\d\d)(\d\d)(\d\d) +(\d+):(\d+):(\d+)(\.\d+)?$/;
// Exact powers of ten: m / POW10[k] is the correctly rounded value of the decimal m·10^-k.
export const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k);

/** pt-query-digest's `parse_timestamp`: `yymmdd h:mm:ss` → `20yy-mm-dd hh:mm:ss`; others unchanged. */
export function normalizeTimestamp(ts: string): string {
  const m = MYSQL_TS.exec(ts);
  if (!m) return ts;
  const two = (s: string | undefined): string => String(Number(s)).padStart(2, '0');
  const seconds = m[7] === undefined ? two(m[6]) : (Number(m[6]) + Number(m[7])).toFixed(6).padStart(9, '0');
  return `${Number(m[1]) + 2000}-${two(m[2])}-${two(m[3])} ${two(m[4])}:${two(m[5])}:${seconds}`;
}

export function parseOrderBy(orderBy: string): { attribute: string; fn: string } {
  const [attribute = 'Query_time', fn = 'sum'] = orderBy.split(':');
  if (!['sum', 'min', 'max', 'avg', 'cnt'].includes(fn)) {
    throw new RangeError(`--order-by function must be sum, min, max, avg or cnt, not "${fn}"`);
  }
  return { attribute, fn };
}

export function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

export function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13); // space \t \n \v \f \r
}

/**
 * A compiled attribute-line shape: capture k is the value of attribute `ids[k-1]` (attributes
 * the digest ignores are matched without a capture).
 */
export interface LineTemplate {
  regex: RegExp;
  ids: number[];
  /**
   * `regex` with each whitespace run between the pairs replaced by the exact one of the line the
   * template was learnt from (`N1: (\S+)  N2: (\S+) …`): servers write their attribute lines
   * with fixed separators, and literal ones are matched about a third faster than `\s+`. It
   * matches a subset of `regex`'s lines, with the same captures; `regex` reads the others.
   */
  literal: RegExp | undefined;
}
export const MAX_TEMPLATES = 64;
export const MAX_TEMPLATE_PAIRS = 64;
// Perl's \s and \S on byte strings (JS \s would also match U+00A0).
export const SPACE = '[ \\t\\n\\r\\f\\v]';
export const NON_SPACE = '[^ \\t\\n\\r\\f\\v]';

/**
 * The value of a plain decimal `\d+(\.\d+)?` of up to 15 digits (exactly `Number(text)`:
 * an integer below 2^53 divided by an exact power of ten is correctly rounded), else -1.
 */
export function plainDecimal(text: string): number {
  // Most values in a log are `0`.
  if (text === '0') return 0;
  const n = text.length;
  let mantissa = 0;
  let digits = 0;
  let point = -1;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
    } else if (c === 46 && point < 0 && digits > 0) point = digits;
    else return -1;
  }
  if (digits === 0 || digits > 15 || point === digits) return -1;
  return point < 0 ? mantissa : mantissa / POW10[digits - point]!;
}

/** Removes the backticks pt-query-digest strips from `use \`db\``. */
export function stripBackticks(db: string): string {
  return db.charCodeAt(0) === 96 || db.endsWith('`') ? db.replace(/^`|`$/g, '') : db;
}

/** `a` < `b` as strings, as pt-query-digest compares times. */
export function tsBeforePt(a: string, b: string): boolean {
  return a < b;
}

/** `a` < `b` as times: `2026-01-02T03:04:05` and `2026-01-02 03:04:05` are the same second. */
export function tsBeforeAsTimes(a: string, b: string): boolean {
  if (a.charCodeAt(10) === b.charCodeAt(10)) return a < b;
  const key = (t: string): string =>
    t.charCodeAt(10) === 84 /* T */ ? `${t.slice(0, 10)} ${t.slice(11)}` : t;
  return key(a) < key(b);
}

/** A new entry of the attribute table; `kept` is the set of aggregated attributes (undefined: all). */
export function newAttribute(name: string, kept: ReadonlySet<string> | undefined): Attribute {
  return {
    name,
    kind: IGNORED.has(name)
      ? Kind.Ignored
      : (SPECIAL[name] ?? (kept === undefined || kept.has(name) ? Kind.Attribute : Kind.Ignored)),
    bucketed: BUCKETED.has(name),
    countsPositive: POSITIVE_COUNTED.has(name),
    adminZeroed: ADMIN_ZEROED.has(name),
    global: GLOBAL_METRICS.has(name),
    type: FORCED_TYPE[name],
    nameColon: `${name}:`,
    next: -1,
  };
}

/** The attribute's type, fixed by its first value (`raw` undefined: a value read as a plain decimal). */
export function typeOf(attribute: Attribute, raw: string | undefined): AttributeType {
  // `raw` is undefined for values already read as plain decimals, which are numbers.
  return (attribute.type ??=
    raw === undefined || NUMBER_VALUE.test(raw) ? 'num' : raw === 'Yes' || raw === 'No' ? 'bool' : 'string');
}

/**
 * The template of an attribute line whose pairs start at `prefix`'s end and have the attribute
 * ids `ids`: `^prefix N1:\s+(\S+)\s+N2:\s+(\S+)…\s*$`.
 */
export function compileTemplate(
  prefix: string,
  ids: readonly number[],
  attributes: readonly Attribute[],
  line?: string,
): LineTemplate {
  const head = `^${escapeRegExp(prefix)}`;
  let source = head;
  // Every separator captured, to learn the line's own (see LineTemplate.literal).
  let analysis = head;
  const captured: number[] = [];
  ids.forEach((id, k) => {
    const attribute = attributes[id]!;
    // Values nobody reads are matched, not captured (no string is made for them).
    const value = attribute.kind === Kind.Ignored ? `${NON_SPACE}+` : `(${NON_SPACE}+)`;
    if (attribute.kind !== Kind.Ignored) captured.push(id);
    source += `${k === 0 ? '' : `${SPACE}+`}${attribute.name}:${SPACE}+${value}`;
    analysis += `${k === 0 ? '' : `(${SPACE}+)`}${attribute.name}:(${SPACE}+)${NON_SPACE}+`;
  });
  const tail = `${SPACE}*$`;
  const regex = new RegExp(`${source}${tail}`);
  const seps = line === undefined ? null : new RegExp(`${analysis}${tail}`).exec(line);
  let literal: RegExp | undefined;
  if (seps !== null) {
    let exact = head;
    let s = 1;
    ids.forEach((id, k) => {
      const attribute = attributes[id]!;
      const value = attribute.kind === Kind.Ignored ? `${NON_SPACE}+` : `(${NON_SPACE}+)`;
      const before = k === 0 ? '' : escapeWhitespace(seps[s++]!);
      exact += `${before}${attribute.name}:${escapeWhitespace(seps[s++]!)}${value}`;
    });
    literal = new RegExp(`${exact}${tail}`);
  }
  return { regex, ids: captured, literal };
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** A whitespace run as regex source (`\t`, `\n`… written as escapes). */
function escapeWhitespace(run: string): string {
  return run.replace(/[\t\n\r\f\v]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
