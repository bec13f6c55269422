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
import { parseStatement, printSql } from '../sql/parse.js';
import { evaluationRisk } from './evaluation-risk.js';
import { classifyWrapping } from '../sql/wrapping.js';
import { generatedColumnType } from './generated-type.js';
import { isStringColumn } from './column-types.js';
import {
  expressionIndexBlockers,
  functionsIn,
  isUnsignedInteger,
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
  /**
   * `refuseStringCasts`: no column whose DDL depends on the stored data: a CAST/CONVERT of a string
   * column, or arithmetic that can overflow or divide by 0 (under `sqlMode`, both servers' strict
   * default when not given).
   */
  options: { refuseStringCasts?: boolean; sqlMode?: string } = {},
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
    [{ name: column.name, autoIncrement: column.autoIncrement, unsignedInteger: isUnsignedInteger(column) }],
    flavor,
  );
  if (blocker) return { ok: false, reason: blocker.replace(/\.$/, '') };
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
  // Arithmetic that fails on some stored values (ERROR 1690 / 1365): the FUN advice checks the data first.
  const risk = options.refuseStringCasts
    ? evaluationRisk(
        wrapped.node,
        [column],
        options.sqlMode ?? 'STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO',
        (node) => printSql(node, flavor),
      )
    : undefined;
  if (risk)
    return {
      ok: false,
      reason: `computing ${expression} fails the DDL on stored values that ${risk.overflow.length > 0 ? 'put it out of its integer range (ERROR 1690)' : 'divide by 0 (ERROR 1365)'} (the function-wrapped advice checks the data first)`,
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
