// The schema after an ALTER TABLE or RENAME TABLE: what later statements of the same script see.
/*
 * Design note.
 * - Input is node-sql-parser's ALTER AST (`expr[]` of clauses) plus the tolerated facts for the clauses
 *   the parser rejects (`ALTER [COLUMN] c SET DEFAULT v | DROP DEFAULT`, see sql/tolerant.ts).
 * - Clauses are applied in order to a copy of the table, as the server applies them:
 *   ADD/DROP/MODIFY/CHANGE/RENAME COLUMN (with FIRST/AFTER), ALTER COLUMN SET/DROP DEFAULT,
 *   ADD/DROP INDEX/KEY/UNIQUE/PRIMARY KEY, RENAME [TO], ENGINE=.
 * - Dropping or renaming a column changes the indexes that use it; an index with no columns left is
 *   dropped (MySQL does the same). Adding a PRIMARY KEY makes its columns NOT NULL.
 * - The tolerated ALTER COLUMN … DEFAULT clauses are applied after the parsed ones (their relative order
 *   is lost when the parser reads the rest); it matters only for an ALTER that renames and re-defaults
 *   the same column in one statement.
 * - Unknown clauses (partitioning, options) change nothing; an ALTER of a table the schema does not
 *   know changes nothing.
 */

import type { Flavor } from '../flavors/capabilities.js';
import { findColumn, findTable, type ColumnInfo, type SchemaModel, type TableInfo } from '../model/schema.js';
import { type AstNode, columnName, isNode } from '../sql/ast.js';
import type { ToleratedFacts } from '../sql/tolerant.js';
import { columnFromDefinition, indexFromDefinition } from './ddl.js';

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** Insert `column` at the place a FIRST / AFTER x suffix asks for, else at `fallback` (append when -1). */
function place(columns: ColumnInfo[], column: ColumnInfo, suffix: unknown, fallback: number): ColumnInfo[] {
  const keyword = isNode(suffix) ? String(suffix.keyword ?? '').toUpperCase() : '';
  let at = fallback < 0 ? columns.length : fallback;
  if (keyword === 'FIRST') at = 0;
  else if (keyword === 'AFTER' && isNode(suffix) && isNode(suffix.expr)) {
    const after = columnName(suffix.expr) ?? '';
    const index = columns.findIndex((existing) => same(existing.name, after));
    if (index >= 0) at = index + 1;
  }
  return [...columns.slice(0, at), column, ...columns.slice(at)];
}

function renameInIndexes(table: TableInfo, from: string, to: string | null): TableInfo {
  const indexes = table.indexes
    .map((index) => ({
      ...index,
      parts: index.parts
        .map((part) => (part.column && same(part.column, from) ? { ...part, column: to } : part))
        .filter((part) => part.column !== null || part.expression !== null),
    }))
    .filter((index) => index.parts.length > 0);
  return { ...table, indexes };
}

function applyClause(table: TableInfo, clause: AstNode, flavor: Flavor): TableInfo {
  const action = String(clause.action ?? '').toLowerCase();
  const resource = String(clause.resource ?? '').toLowerCase();
  if (resource === 'column' && (action === 'add' || action === 'modify' || action === 'change')) {
    const column = columnFromDefinition(clause, flavor, null, table.collation);
    if (!column) return table;
    const old =
      action === 'change' && isNode(clause.old_column) ? columnName(clause.old_column) : column.name;
    const position = old ? table.columns.findIndex((existing) => same(existing.name, old)) : -1;
    if (action !== 'add' && position < 0) return table;
    const rest = table.columns.filter((_existing, index) => action === 'add' || index !== position);
    let next: TableInfo = {
      ...table,
      columns: place(rest, column, clause.suffix, action === 'add' ? -1 : position),
    };
    if (old && !same(old, column.name)) next = renameInIndexes(next, old, column.name);
    if (clause.primary_key || clause.unique) {
      const index = {
        name: clause.primary_key ? 'PRIMARY' : column.name,
        unique: true,
        primary: Boolean(clause.primary_key),
        kind: 'btree' as const,
        parts: [{ column: column.name, expression: null, prefixLength: null }],
        visible: true,
      };
      next = { ...next, indexes: [...next.indexes, index] };
    }
    return next;
  }
  if (resource === 'column' && action === 'drop') {
    const name = isNode(clause.column) ? columnName(clause.column) : undefined;
    if (!name) return table;
    return renameInIndexes(
      { ...table, columns: table.columns.filter((column) => !same(column.name, name)) },
      name,
      null,
    );
  }
  if (resource === 'column' && action === 'rename') {
    const from = isNode(clause.old_column) ? columnName(clause.old_column) : undefined;
    const to = isNode(clause.column) ? columnName(clause.column) : undefined;
    if (!from || !to) return table;
    const columns = table.columns.map((column) =>
      same(column.name, from) ? { ...column, name: to } : column,
    );
    return renameInIndexes({ ...table, columns }, from, to);
  }
  if (action === 'add' && (resource === 'index' || resource === 'constraint')) {
    const definition = isNode(clause.create_definitions) ? clause.create_definitions : clause;
    const index = indexFromDefinition(definition, flavor);
    if (!index) return table;
    const columns = index.primary
      ? table.columns.map((column) =>
          index.parts.some((part) => part.column && same(part.column, column.name))
            ? { ...column, nullable: false }
            : column,
        )
      : table.columns;
    const indexes = index.primary ? table.indexes.filter((existing) => !existing.primary) : table.indexes;
    return { ...table, columns, indexes: [...indexes, index] };
  }
  if (action === 'drop' && (resource === 'index' || resource === 'key')) {
    const keyword = String(clause.keyword ?? '').toLowerCase();
    if (keyword.includes('foreign')) return table;
    if (keyword === 'primary key')
      return { ...table, indexes: table.indexes.filter((index) => !index.primary) };
    const name = String(clause.index ?? clause.key ?? '');
    return { ...table, indexes: table.indexes.filter((index) => !same(index.name, name)) };
  }
  if (action === 'rename' && resource === 'table' && typeof clause.table === 'string')
    return { ...table, name: clause.table };
  if (resource === 'engine' && typeof clause.engine === 'string') return { ...table, engine: clause.engine };
  return table;
}

/** The schema after `ALTER TABLE` (with the tolerated ALTER COLUMN … DEFAULT facts) or `RENAME TABLE`. */
export function schemaAfterAlter(
  schema: SchemaModel,
  ast: AstNode,
  tolerated: ToleratedFacts | undefined,
  flavor: Flavor,
  database: string | null,
): SchemaModel {
  const type = String(ast.type ?? '').toLowerCase();
  if (type === 'rename' && Array.isArray(ast.table)) {
    let next = schema;
    for (const pair of ast.table as unknown[]) {
      if (!Array.isArray(pair)) continue;
      const [from, to] = pair as { db?: unknown; table?: unknown }[];
      if (typeof from?.table !== 'string' || typeof to?.table !== 'string') continue;
      const table = findTable(next, from.table, typeof from.db === 'string' ? from.db : database);
      if (!table) continue;
      const renamed = to.table;
      next = {
        ...next,
        tables: next.tables.map((entry) => (entry === table ? { ...entry, name: renamed } : entry)),
      };
    }
    return next;
  }
  if (type !== 'alter' || !Array.isArray(ast.table)) return schema;
  const target = ast.table[0] as { db?: unknown; table?: unknown } | undefined;
  if (typeof target?.table !== 'string') return schema;
  const original = findTable(schema, target.table, typeof target.db === 'string' ? target.db : database);
  if (!original) return schema;
  let table = original;
  for (const clause of Array.isArray(ast.expr) ? ast.expr : [])
    if (isNode(clause)) table = applyClause(table, clause, flavor);
  for (const fact of tolerated?.columnDefaults ?? []) {
    const column = findColumn(table, fact.column);
    if (!column) continue;
    const hasDefault = fact.value !== null;
    table = {
      ...table,
      columns: table.columns.map((entry) => (entry === column ? { ...entry, hasDefault } : entry)),
    };
  }
  return { ...schema, tables: schema.tables.map((entry) => (entry === original ? table : entry)) };
}
