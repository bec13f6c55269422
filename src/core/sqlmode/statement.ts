// AST helpers shared by the sql-mode (MOD) rules: target tables, inserted/assigned values, literal dates and spans.

import { findColumn, findTable, type ColumnInfo, type SchemaModel, type TableInfo } from '../model/schema.js';
import { type AstNode, isNode, type Span, spanOf } from '../sql/ast.js';
import type { ToleratedFacts } from '../sql/tolerant.js';

/** The first table an INSERT/REPLACE/UPDATE/CREATE/ALTER names. */
export function targetTableName(ast: AstNode): { db: string | null; table: string } | undefined {
  const tables = Array.isArray(ast.table) ? ast.table : [];
  const first: unknown = tables[0];
  if (!isNode(first) || typeof first.table !== 'string') return undefined;
  return { db: typeof first.db === 'string' ? first.db : null, table: first.table };
}

/** The schema entry of the statement's target table, if the schema knows it. */
export function targetTable(
  ast: AstNode,
  schema: SchemaModel,
  database: string | null,
): TableInfo | undefined {
  const name = targetTableName(ast);
  return name ? findTable(schema, name.table, name.db ?? database) : undefined;
}

/** One value written to a column: the expression, its column name, and the 1-based row number. */
export interface WrittenValue {
  column: string;
  value: AstNode;
  row: number;
}

/** Column names an INSERT/REPLACE lists explicitly (`(a, b)` or `SET a=…`); null when it lists none. */
export function insertColumns(ast: AstNode): string[] | null {
  if (Array.isArray(ast.columns)) return ast.columns.map((column) => String(column));
  if (Array.isArray(ast.set)) return ast.set.filter(isNode).map((item) => String(item.column));
  return null;
}

/** Rows of `VALUES (…), (…)`, as expression lists; empty for INSERT … SELECT. */
export function insertRows(ast: AstNode): AstNode[][] {
  const values = ast.values;
  if (!isNode(values) || values.type !== 'values' || !Array.isArray(values.values)) return [];
  return values.values
    .filter(isNode)
    .map((row) => (Array.isArray(row.value) ? row.value.filter(isNode) : []));
}

/** True for INSERT … SELECT. */
export function isInsertSelect(ast: AstNode): boolean {
  return isNode(ast.values) && ast.values.type === 'select';
}

/** Values a statement writes to named columns: INSERT/REPLACE VALUES rows, INSERT … SET and UPDATE … SET. */
export function writtenValues(ast: AstNode, table: TableInfo | undefined): WrittenValue[] {
  const written: WrittenValue[] = [];
  if (Array.isArray(ast.set)) {
    for (const item of ast.set.filter(isNode))
      if (isNode(item.value)) written.push({ column: String(item.column), value: item.value, row: 1 });
    return written;
  }
  const names = insertColumns(ast) ?? table?.columns.map((column) => column.name) ?? null;
  if (!names) return written;
  insertRows(ast).forEach((row, index) => {
    row.forEach((value, position) => {
      const column = names[position];
      if (column !== undefined) written.push({ column, value, row: index + 1 });
    });
  });
  return written;
}

/**
 * True when the statement has the IGNORE modifier (errors become warnings): INSERT/REPLACE IGNORE in
 * the AST, UPDATE/DELETE IGNORE as a tolerated fact (the parser rejects them).
 */
export function hasIgnore(ast: AstNode, tolerated?: ToleratedFacts): boolean {
  if (tolerated?.ignore) return true;
  return typeof ast.prefix === 'string' && /\bignore\b/i.test(ast.prefix);
}

/** Schema column for a written value. */
export function columnOf(table: TableInfo | undefined, name: string): ColumnInfo | undefined {
  return table ? findColumn(table, name) : undefined;
}

/** A string literal's value (single- or double-quoted), or undefined. */
export function stringLiteral(node: unknown): string | undefined {
  if (!isNode(node)) return undefined;
  if (node.type === 'single_quote_string' || node.type === 'double_quote_string' || node.type === 'string')
    return typeof node.value === 'string' ? node.value : undefined;
  return undefined;
}

/** What is wrong with a date/datetime literal, if anything. */
export type DateProblem = 'zero-date' | 'zero-in-date' | 'invalid-date';

/** Classify `YYYY-MM-DD[ hh:mm:ss[.f]]` text; undefined when it is a valid date or not date-shaped. */
export function dateProblem(text: string): DateProblem | undefined {
  const match = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?)?\s*$/.exec(
    text,
  );
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year === 0 && month === 0 && day === 0) return 'zero-date';
  if (month === 0 || day === 0) return 'zero-in-date';
  if (month > 12 || day > 31) return 'invalid-date';
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return 'invalid-date';
  return undefined;
}

/** True for the temporal types whose values the date modes check. */
export function isDateType(dataType: string): boolean {
  return ['date', 'datetime', 'timestamp'].includes(dataType.toLowerCase());
}

/** Span of a node, else of the first occurrence of `needle` (case-insensitive), else the whole statement. */
export function spanFor(sql: string, node: unknown, needle?: string): Span {
  const own = spanOf(node);
  if (own) return own;
  if (needle) {
    const at = sql.toLowerCase().indexOf(needle.toLowerCase());
    if (at >= 0) return { start: at, end: at + needle.length };
  }
  return { start: 0, end: sql.length };
}

/** Raw text of a string literal for searching the statement: `'value'` with quotes doubled. */
export function quoted(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** Note for findings made without the table's definition. */
export function unknownTableNote(
  table: string | undefined,
  skipped?: { line: number; reason: string; source?: string },
): string {
  if (table && skipped)
    return `Table ${table} is not in the schema: its definition${skipped.source ? ` in ${skipped.source}` : ''} at line ${skipped.line} was skipped (${skipped.reason}), so only checks that need no column definitions were made.`;
  return table
    ? `Table ${table} is not in the schema: only checks that need no column definitions were made (give the CREATE TABLE or connect to a server to check the rest).`
    : 'The target table is unknown: only checks that need no column definitions were made.';
}
