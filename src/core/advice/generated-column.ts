// One VIRTUAL generated column for an expression given as text: its declared type, the expression as
// the column declares it on the target, and a name token. Shared by the export (one column for an
// expression several MySQL indexes key on) and the index design (a generated column as the key part on
// a server without functional key parts: MariaDB, MySQL < 8.0.13).
//
// Design note: the type comes from generatedColumnType (generated-type.ts), the same derivation the
// wrapped-column advice uses, so a column the design proposes is declared exactly as the FUN rules'
// generated-column advice declares it (string collation kept, DATE_FORMAT as a VARCHAR and in its
// 3-argument form on MariaDB). A string result longer than a key can hold is refused.

import type { Flavor } from '../flavors/capabilities.js';
import { findColumn, type TableInfo } from '../model/schema.js';
import { columnRefs, isNode } from '../sql/ast.js';
import { parseStatement } from '../sql/parse.js';
import { classifyWrapping } from '../sql/wrapping.js';
import { generatedColumnType } from './generated-type.js';
import { isStringColumn } from './column-types.js';
import {
  expressionIndexBlockers,
  functionsIn,
  MAX_KEY_BYTES,
  NONDETERMINISTIC_FUNCTIONS,
  wrapperToken,
} from './index-ddl.js';

/** Bytes per character of a character set, for the key-length check of a generated string column. */
const BYTES_PER_CHAR: Readonly<Record<string, number>> = {
  latin1: 1,
  ascii: 1,
  utf8: 3,
  utf8mb3: 3,
  ucs2: 2,
};

export type GeneratedColumnSpec =
  | {
      ok: true;
      /** The declared SQL type (`DATE`, `VARCHAR(7) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin` …). */
      sql: string;
      /** The expression as the column declares it on this flavor. */
      expression: string;
      /** A name for the column: `<column>_<wrapper>` (`created_at_year`). */
      token: string;
      /** The base column the expression reads. */
      column: string;
      /** Why the column may compare unlike the expression for this operator and constants (null: it does not). */
      caveat?: (operator: string, others: readonly unknown[]) => string | null;
    }
  | { ok: false; reason: string };

/** The generated column for `expression` (text, as the query writes it) on `info`, or why there is none. */
export function generatedColumnFor(
  expression: string,
  info: TableInfo,
  flavor: Flavor,
  /** `refuseStringCasts`: no column for a CAST/CONVERT of a string column (its DDL depends on the data). */
  options: { refuseStringCasts?: boolean } = {},
): GeneratedColumnSpec {
  const parsed = parseStatement(`SELECT ${expression} FROM t`, flavor);
  const expr = parsed.ok ? (parsed.ast.columns as { expr?: unknown }[] | undefined)?.[0]?.expr : undefined;
  const wrapped = isNode(expr) ? classifyWrapping(expr) : undefined;
  if (!wrapped) return { ok: false, reason: 'the expression is not one the advisor classifies' };
  const { names, impure } = functionsIn(wrapped.node);
  if (impure || [...names].some((name) => NONDETERMINISTIC_FUNCTIONS.has(name)))
    return { ok: false, reason: 'the expression is not deterministic' };
  const refs = [...new Set(columnRefs(wrapped.node).map((ref) => ref.column.toLowerCase()))];
  const column = refs.length === 1 ? findColumn(info, refs[0]!) : undefined;
  if (!column) return { ok: false, reason: 'the expression does not read exactly one known column' };
  const [blocker] = expressionIndexBlockers(
    wrapped.node,
    [{ name: column.name, autoIncrement: column.autoIncrement }],
    flavor,
  );
  if (blocker) return { ok: false, reason: blocker.replace(/\.$/, '') };
  // MariaDB refuses a generated column over a subtraction with an UNSIGNED integer column (ERROR 1901,
  // NO_UNSIGNED_SUBTRACTION; the same check as the function-wrapped advice in advise.ts).
  if (
    flavor === 'mariadb' &&
    /int$/i.test(column.dataType) &&
    /unsigned/i.test(column.columnType) &&
    hasMinus(wrapped.node)
  )
    return {
      ok: false,
      reason: `MariaDB does not index a generated column over a subtraction with the UNSIGNED integer column ${column.name} (ERROR 1901: the result depends on the session's NO_UNSIGNED_SUBTRACTION sql_mode)`,
    };
  if (
    options.refuseStringCasts &&
    (wrapped.kind === 'cast' || wrapped.name === 'CONVERT') &&
    isStringColumn(column)
  )
    // Data-dependent: one stored value that does not convert fails the DDL (the FUN advice checks the
    // data first), and MariaDB refuses CAST(string AS DATETIME|TIME) in an indexed column (ERROR 1901).
    return {
      ok: false,
      reason: `a CAST of the string column ${column.name} fails the DDL on any stored value that does not convert (the function-wrapped advice checks the data first)`,
    };
  const type = generatedColumnType(wrapped, column, info);
  if (!type.ok) return type;
  const string = /^VARCHAR\((\d+)\) CHARACTER SET (\w+)/i.exec(type.sql);
  if (string && Number(string[1]) * (BYTES_PER_CHAR[string[2]!.toLowerCase()] ?? 4) > MAX_KEY_BYTES)
    return { ok: false, reason: 'the string result is longer than an index key can hold' };
  return {
    ok: true,
    sql: type.sql,
    expression:
      flavor === 'mariadb' && type.mariadbExpression ? type.mariadbExpression(expression) : expression,
    token: `${column.name}_${wrapperToken(wrapped)}`,
    column: column.name,
    ...(type.caveat ? { caveat: type.caveat } : {}),
  };
}

function hasMinus(node: unknown): boolean {
  if (!isNode(node)) return false;
  if (node.type === 'binary_expr' && node.operator === '-') return true;
  for (const key in node) if (key !== 'loc' && hasMinus(node[key])) return true;
  return false;
}
