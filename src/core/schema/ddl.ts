// Offline schema: builds the SchemaModel from DDL text (a dump, SHOW CREATE output, or pasted DDL),
// and reads ALTER TABLE column/index clauses from node-sql-parser ASTs (alter.ts).

import type { Flavor } from '../flavors/capabilities.js';
import type { ColumnInfo, IndexInfo, IndexPart, SchemaModel } from '../model/schema.js';
import { type AstNode, columnName, isNode } from '../sql/ast.js';
import { parseFragment, printSql } from '../sql/parse.js';
import { loadSchemaText, SchemaLoader, type SchemaLoadSummary, type SchemaSource } from './ddl-load.js';

/** Problems met while reading the DDL; the tables that did parse are still returned. */
export interface DdlProblem {
  message: string;
  line: number;
  column: number;
}

/**
 * The schema of DDL text: every CREATE TABLE / VIEW / INDEX, ALTER, RENAME and DROP applied in order
 * (see ddl-load.ts). `problems` lists the statements that define or change a table but were skipped,
 * and the tables loaded only in part; `summary` is the full account (loaded N, skipped M, …).
 */
export function schemaFromDdl(
  ddl: string | readonly SchemaSource[],
  flavor: Flavor = 'mysql',
  version?: string,
): { schema: SchemaModel; problems: DdlProblem[]; summary: SchemaLoadSummary } {
  const { schema, summary } = loadSchemaText(ddl, {
    flavor,
    printExpression: printExpressionText,
    ...(version ? { version } : {}),
  });
  const problems = [...summary.skipped, ...summary.partial].map((entry) => ({
    message: `${entry.statement}: ${entry.reason}`,
    line: entry.line,
    column: entry.column,
  }));
  return { schema, problems, summary };
}

/** A loader fed statement by statement (a schema file read as a stream) that loads as schemaFromDdl does. */
export function schemaLoader(flavor: Flavor = 'mysql', version?: string): SchemaLoader {
  return new SchemaLoader({ flavor, printExpression: printExpressionText, ...(version ? { version } : {}) });
}

/** An expression as node-sql-parser prints it (`month(\`ts\`)`), or null when it does not parse. */
function printExpressionText(text: string, flavor: Flavor): string | null {
  const parsed = parseFragment(`SELECT ${text}`, flavor);
  if (!parsed.ok) return null;
  const columns = (parsed.ast as { columns?: unknown }).columns;
  const first = Array.isArray(columns) ? (columns[0] as { expr?: unknown } | undefined) : undefined;
  if (!first || !isNode(first.expr)) return null;
  try {
    return printSql({ ...first.expr, parentheses: false }, flavor);
  } catch {
    return null;
  }
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
