// Offline schema: builds the SchemaModel from CREATE TABLE statements (a dump, or pasted DDL).

import type { Flavor } from '../flavors/capabilities.js';
import type { ColumnInfo, IndexInfo, IndexPart, SchemaModel, TableInfo } from '../model/schema.js';
import { type AstNode, columnName, isNode } from '../sql/ast.js';
import { parseStatement, printSql } from '../sql/parse.js';
import { splitStatements } from '../sql/split.js';

/** Problems met while reading the DDL; the tables that did parse are still returned. */
export interface DdlProblem {
  message: string;
  line: number;
  column: number;
}

/** Parse every CREATE TABLE in `ddl`; other statements are ignored. */
export function schemaFromDdl(
  ddl: string,
  flavor: Flavor = 'mysql',
): { schema: SchemaModel; problems: DdlProblem[] } {
  const tables: TableInfo[] = [];
  const problems: DdlProblem[] = [];
  for (const slice of splitStatements(ddl)) {
    if (!/^\s*create\s+(temporary\s+)?table/i.test(slice.sql)) continue;
    const parsed = parseStatement(slice.sql, flavor);
    if (!parsed.ok) {
      problems.push({
        message: parsed.message,
        line: slice.line + parsed.line - 1,
        column: parsed.line === 1 ? slice.column + parsed.column - 1 : parsed.column,
      });
      continue;
    }
    const table = tableFromCreate(parsed.ast, flavor);
    if (table) tables.push(table);
  }
  return { schema: { source: 'ddl', tables }, problems };
}

function tableFromCreate(ast: AstNode, flavor: Flavor): TableInfo | undefined {
  const target = Array.isArray(ast.table) ? (ast.table[0] as AstNode | undefined) : undefined;
  if (!target || typeof target.table !== 'string') return undefined;
  const options = Array.isArray(ast.table_options) ? (ast.table_options as AstNode[]) : [];
  const option = (keyword: string): string | null => {
    const found = options.find((entry) => String(entry.keyword).toLowerCase() === keyword);
    const value = found?.value as unknown;
    if (typeof value === 'string') return value;
    if (isNode(value) && typeof value.value === 'string') return value.value;
    return null;
  };
  const tableCollation = option('collate') ?? option('default collate');
  const tableCharset =
    option('default charset') ??
    option('charset') ??
    option('default character set') ??
    option('character set');

  const columns: ColumnInfo[] = [];
  const indexes: IndexInfo[] = [];
  const definitions = Array.isArray(ast.create_definitions) ? (ast.create_definitions as AstNode[]) : [];
  for (const definition of definitions) {
    if (definition.resource === 'column') {
      const column = columnFromDefinition(definition, flavor, tableCharset, tableCollation);
      if (column) columns.push(column);
      if (definition.primary_key || definition.unique) {
        // Inline `id INT PRIMARY KEY` / `email VARCHAR(100) UNIQUE`
        const primary = Boolean(definition.primary_key);
        indexes.push({
          name: primary ? 'PRIMARY' : (column?.name ?? ''),
          unique: true,
          primary,
          kind: 'btree',
          parts: [{ column: column?.name ?? null, expression: null, prefixLength: null }],
          visible: true,
        });
      }
    } else if (definition.resource === 'index' || definition.resource === 'constraint') {
      const index = indexFromDefinition(definition, flavor);
      if (index) indexes.push(index);
    }
  }
  return {
    schema: typeof target.db === 'string' ? target.db : null,
    name: target.table,
    columns,
    indexes,
    engine: option('engine'),
    collation: tableCollation,
    rowsEstimate: null,
  };
}

/** A column of a CREATE TABLE definition (or an ALTER TABLE ADD/MODIFY/CHANGE clause, same shape). */
export function columnFromDefinition(
  definition: AstNode,
  flavor: Flavor,
  tableCharset: string | null,
  tableCollation: string | null,
): ColumnInfo | undefined {
  const name = isNode(definition.column) ? columnName(definition.column) : undefined;
  const type = definition.definition as
    { dataType?: string; length?: number; scale?: number; suffix?: unknown } | undefined;
  if (!name || !type?.dataType) return undefined;
  const dataType = type.dataType.toLowerCase();
  const suffix = Array.isArray(type.suffix) ? ` ${type.suffix.join(' ').toLowerCase()}` : '';
  const size =
    type.length !== undefined ? `(${type.length}${type.scale !== undefined ? `,${type.scale}` : ''})` : '';
  const nullable = (definition.nullable as { type?: string } | undefined)?.type !== 'not null';
  const collate = (definition.collate as { collate?: { name?: string } } | undefined)?.collate?.name ?? null;
  const charsetNode = definition.character_set as { value?: { value?: string } } | undefined;
  const textual = /char|text|enum|set/.test(dataType);
  const generatedNode = definition.generated as { expr?: AstNode; storage_type?: string } | null | undefined;
  return {
    name,
    dataType,
    columnType: `${dataType}${size}${suffix}`.trim(),
    nullable: nullable && !definition.primary_key,
    charset: textual ? (charsetNode?.value?.value ?? tableCharset) : null,
    collation: textual ? (collate ?? tableCollation) : null,
    generated:
      generatedNode && isNode(generatedNode.expr)
        ? {
            expression: printSql(generatedNode.expr, flavor),
            stored: generatedNode.storage_type === 'stored',
          }
        : null,
    autoIncrement: Boolean(definition.auto_increment),
    hasDefault: definition.default_val !== undefined && definition.default_val !== null,
  };
}

/** An index of a CREATE TABLE definition (or an ALTER TABLE ADD INDEX/constraint clause). */
export function indexFromDefinition(definition: AstNode, flavor: Flavor): IndexInfo | undefined {
  const constraintType = String(definition.constraint_type ?? '').toLowerCase();
  const keyword = String(definition.keyword ?? '').toLowerCase();
  if (constraintType.includes('foreign') || constraintType === 'check') return undefined;
  const primary = constraintType === 'primary key';
  const unique = primary || constraintType.startsWith('unique');
  const kind: IndexInfo['kind'] = keyword.startsWith('fulltext')
    ? 'fulltext'
    : keyword.startsWith('spatial')
      ? 'spatial'
      : 'btree';
  const parts: IndexPart[] = [];
  for (const part of Array.isArray(definition.definition) ? (definition.definition as AstNode[]) : []) {
    if (part.type === 'column_ref') {
      const prefix = typeof part.suffix === 'string' ? /\((\d+)\)/.exec(part.suffix)?.[1] : undefined;
      parts.push({
        column: columnName(part) ?? null,
        expression: null,
        prefixLength: prefix ? Number(prefix) : null,
      });
    } else {
      parts.push({
        column: null,
        expression: printSql({ ...part, parentheses: false }, flavor),
        prefixLength: null,
      });
    }
  }
  const name = primary
    ? 'PRIMARY'
    : typeof definition.index === 'string'
      ? definition.index
      : (parts[0]?.column ?? 'index');
  return { name, unique, primary, kind, parts, visible: true };
}
