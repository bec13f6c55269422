// Function-wrapped predicates on a server without functional key parts (MariaDB, MySQL < 8.0.13): each
// expression the advisor can type becomes a VIRTUAL generated column, and the column takes the
// expression's place in the composite key by the same access-path rules as any column.
//
// Design note: the statement is rewritten to name the columns instead of the expressions, and the
// rewritten statement is designed against the schema with those columns added. So equality first, then
// range or sort, then covering — and "served", "extend", the merge by prefix of a workload — all apply
// unchanged, and covering is judged on what the rewritten statement reads. A column none of the
// designed indexes keys on is dropped from the rewrite and the design runs again without it.
// The column's type and its declared expression come from generatedColumnFor (advice/generated-column.ts),
// the machinery of the FUN rules' generated-column advice. An expression the table already has as a
// generated column (its stored GENERATION_EXPRESSION, compared in canonical form) reuses that column.
// One name per expression: a workload passes one `generatedNames` map to every statement.
//
// Measured on MariaDB 10.11.19: `WHERE ch = 2 AND DATE(ts) = …` scans with an index on (ch, ts_date)
// where ts_date is AS (DATE(ts)) VIRTUAL, and `WHERE ch = 2 AND ts_date = …` seeks it: MariaDB never
// substitutes the expression, so the plan carries the rewritten statement and marks that the query must
// change. MySQL (5.7.8 and later) substitutes a matching expression by an indexed generated column, so
// there the statement can stay; it still reads the base column from the row, so only the rewritten
// statement is covered (measured on 8.0.33, which substitutes the same way).
// Online DDL: ADD COLUMN … VIRTUAL and an index on it in one ALTER cannot run with LOCK=NONE on either
// server (ERROR 1846 "Try LOCK=SHARED"), so an extension's ALTER says LOCK=SHARED and the notes say so.

import { generatedColumnFor } from '../advice/generated-column.js';
import { quoteIdentifier, uniqueName } from '../advice/index-ddl.js';
import type { ColumnInfo, SchemaModel, TableInfo } from '../model/schema.js';
import type { ServerInfo } from '../model/server-info.js';
import { columnRefs, isNode, spanOf, type AstNode } from '../sql/ast.js';
import { parseStatement } from '../sql/parse.js';
import { blockAccess } from './access.js';
import { nestedBlocks } from './blocks.js';
import type { DesignedPart, DesignOptions, GeneratedColumnUse, QueryIndexPlan } from './design-types.js';
import { canonical } from './key-parts.js';

type Design = (
  ast: AstNode,
  sql: string,
  schema: SchemaModel,
  options: DesignOptions,
) => QueryIndexPlan | undefined;

/** One expression of the statement replaced by a generated column. */
interface Edit {
  start: number;
  end: number;
  text: string;
  info: TableInfo;
  use: GeneratedColumnUse;
  /** The column the expression reads. */
  base: string;
  /** The declared type (new columns). */
  type?: string;
}

const FLIP: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/**
 * The design with generated columns for the statement's function-wrapped predicates, or undefined when
 * no generated column ends up in an index (then `notes` says why an expression could not have one).
 */
export function designWithGeneratedColumns(
  ast: AstNode,
  sql: string,
  schema: SchemaModel,
  server: ServerInfo,
  options: DesignOptions,
  design: Design,
  notes: string[],
): QueryIndexPlan | undefined {
  let edits = expressionEdits(ast, sql, schema, server, options, notes);
  for (let round = 0; round < 3 && edits.length > 0; round++) {
    const rewritten = applyEdits(sql, edits);
    const parsed = parseStatement(rewritten, server.flavor);
    if (!parsed.ok) return undefined;
    const plan = design(parsed.ast, rewritten, withColumns(schema, edits), {
      ...options,
      withoutGenerated: true,
    });
    if (!plan) return undefined;
    const used = new Set<string>();
    for (const table of plan.tables)
      if (table.verdict !== 'none')
        for (const part of table.parts)
          if (part.column) used.add(`${table.table.toLowerCase()}|${part.column.toLowerCase()}`);
    const kept = edits.filter((edit) =>
      used.has(`${edit.info.name.toLowerCase()}|${edit.use.name.toLowerCase()}`),
    );
    if (kept.length === edits.length) return finish(plan, rewritten, edits, server);
    edits = kept;
  }
  return undefined;
}

/** The expression predicates of every block, each with its generated column (new or existing). */
function expressionEdits(
  ast: AstNode,
  sql: string,
  schema: SchemaModel,
  server: ServerInfo,
  options: DesignOptions,
  notes: string[],
): Edit[] {
  const substitutes = server.capabilities.generatedColumnSubstitution;
  let blocks: AstNode[] = [ast];
  try {
    blocks = [ast, ...nestedBlocks(ast).map((block) => block.ast)];
  } catch {
    blocks = [ast];
  }
  const names = options.generatedNames ?? new Map<string, string>();
  const edits: Edit[] = [];
  for (const block of blocks) {
    let access;
    try {
      access = blockAccess(block, sql, schema, server.database, server.flavor);
    } catch {
      continue;
    }
    if (!access) continue;
    for (const [index, predicates] of access.predicates) {
      const info = access.tables[index]?.info;
      if (!info || info.kind) continue;
      for (const predicate of predicates) {
        const node = predicate.expressionNode;
        if (!predicate.expression || !node) continue;
        const found = spanOf(node);
        if (found && edits.some((edit) => edit.start === found.start)) continue;
        const unplaced = `No generated column for ${predicate.expression}: the parser gives no position for it in the statement, so the statement cannot be rewritten to name a column.`;
        const span = found ?? { start: 0, end: 0 };
        let end = span.end;
        while (end > span.start && /\s/.test(sql[end - 1] ?? '')) end--;
        const key = canonical(predicate.expression);
        const qualifier = columnRefs(node).find((ref) => typeof ref.table === 'string')?.table;
        const prefix = typeof qualifier === 'string' ? `${quoteIdentifier(qualifier)}.` : '';
        const existing = info.columns.find(
          (column) => column.generated && canonical(column.generated.expression) === key,
        );
        if (existing) {
          // MySQL substitutes it already (design-table.ts keys on it with the query unchanged).
          if (substitutes) continue;
          if (!found) {
            notes.push(unplaced);
            continue;
          }
          edits.push({
            start: span.start,
            end,
            text: `${prefix}${quoteIdentifier(existing.name)}`,
            info,
            base: predicate.column,
            use: { table: info.name, name: existing.name, expression: predicate.expression, existing: true },
          });
          continue;
        }
        const spec = generatedColumnFor(predicate.expression, info, server.flavor, {
          refuseStringCasts: true,
        });
        if (!spec.ok) {
          notes.push(`No generated column for ${predicate.expression}: ${spec.reason}.`);
          continue;
        }
        const caveat = spec.caveat?.(...operatorAndOthers(predicate.node, node));
        if (caveat) {
          notes.push(`No generated column for ${predicate.expression}: ${caveat}`);
          continue;
        }
        if (!found) {
          notes.push(unplaced);
          continue;
        }
        const registryKey = `${info.name.toLowerCase()}|${key}`;
        let name = names.get(registryKey);
        if (!name) {
          const taken = [
            ...info.columns.map((column) => column.name),
            ...[...names]
              .filter(([other]) => other.startsWith(`${info.name.toLowerCase()}|`))
              .map(([, n]) => n),
          ];
          name = uniqueName(spec.token, taken);
          names.set(registryKey, name);
        }
        edits.push({
          start: span.start,
          end,
          text: `${prefix}${quoteIdentifier(name)}`,
          info,
          base: spec.column,
          type: spec.sql,
          use: {
            table: info.name,
            name,
            expression: predicate.expression,
            definition: `${spec.sql} GENERATED ALWAYS AS (${spec.expression}) VIRTUAL`,
            existing: false,
          },
        });
      }
    }
  }
  return edits;
}

/** The comparison's operator as seen from the expression's side, and the values it is compared with. */
function operatorAndOthers(predicate: AstNode, expression: AstNode): [string, unknown[]] {
  const operator = String(predicate.operator ?? '').toUpperCase();
  const onRight = predicate.right === expression;
  const other = onRight ? predicate.left : predicate.right;
  const values =
    isNode(other) && other.type === 'expr_list' && Array.isArray(other.value) ? other.value : [other];
  return [onRight ? (FLIP[operator] ?? operator) : operator, values];
}

function applyEdits(sql: string, edits: readonly Edit[]): string {
  let result = sql;
  for (const edit of [...edits].sort((a, b) => b.start - a.start))
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}

/** The schema with the new generated columns added to their tables (so the design can type and key them). */
function withColumns(schema: SchemaModel, edits: readonly Edit[]): SchemaModel {
  const added = new Map<TableInfo, ColumnInfo[]>();
  for (const edit of edits) {
    if (edit.use.existing || !edit.type) continue;
    const list = added.get(edit.info) ?? [];
    if (list.some((column) => column.name === edit.use.name)) continue;
    const string = /^(VARCHAR\(\d+\)) CHARACTER SET (\w+) COLLATE (\w+)$/i.exec(edit.type);
    const columnType = (string ? string[1]! : edit.type).toLowerCase();
    list.push({
      name: edit.use.name,
      dataType: columnType.split(/[\s(]/)[0]!,
      columnType,
      nullable: true,
      charset: string ? string[2]! : null,
      collation: string ? string[3]! : null,
      generated: { expression: edit.use.expression, stored: false },
      autoIncrement: false,
      hasDefault: false,
    });
    added.set(edit.info, list);
  }
  if (added.size === 0) return schema;
  return {
    ...schema,
    tables: schema.tables.map((table) => {
      const columns = added.get(table);
      return columns ? { ...table, columns: [...table.columns, ...columns] } : table;
    }),
  };
}

/** DDL that adds the new columns, notes, and the rewritten statement on the plan. */
function finish(
  plan: QueryIndexPlan,
  rewritten: string,
  edits: readonly Edit[],
  server: ServerInfo,
): QueryIndexPlan {
  const substitutes = server.capabilities.generatedColumnSubstitution;
  const server_ = server.flavor === 'mariadb' ? 'MariaDB' : 'MySQL';
  const byKey = new Map(
    edits.map((edit) => [`${edit.info.name.toLowerCase()}|${edit.use.name.toLowerCase()}`, edit]),
  );
  const added = new Map<string, string>();
  for (const table of plan.tables) {
    if (table.verdict === 'none') continue;
    const mine = table.parts
      .map((part) => ({
        part,
        edit: part.column
          ? byKey.get(`${table.table.toLowerCase()}|${part.column.toLowerCase()}`)
          : undefined,
      }))
      .filter((entry): entry is { part: (typeof entry)['part']; edit: Edit } => entry.edit !== undefined);
    if (mine.length === 0) continue;
    const fresh = mine.filter((entry) => !entry.edit.use.existing);
    if (table.verdict === 'create' || table.verdict === 'extend') {
      table.parts = table.parts.map((part) => {
        const entry = fresh.find((candidate) => candidate.part === part);
        return entry
          ? {
              ...part,
              generated: { expression: entry.edit.use.expression, definition: entry.edit.use.definition! },
            }
          : part;
      });
      const toAdd =
        table.ddl.length > 0
          ? generatedColumnsToAdd(table.table, table.parts, added, table.indexName ?? '')
          : [];
      if (toAdd.length > 0) {
        table.ddl = table.ddl.map((statement) => withAddedColumns(statement, toAdd));
        table.notes.push(
          `No functional key parts on this server: ${toAdd.map((use) => `${use.name} = ${use.expression}`).join(', ')} ${toAdd.length === 1 ? 'is a VIRTUAL generated column' : 'are VIRTUAL generated columns'} added in the same ALTER and keyed like any column (a VIRTUAL column stores nothing in the rows; only the index takes space). The servers refuse LOCK=NONE for an index on a column the same ALTER adds (ERROR 1846): writes wait while it builds; on a busy table add the column first (INSTANT), then the index with LOCK=NONE.`,
        );
      }
    }
    for (const { edit } of mine) {
      if (substitutes) {
        table.notes.push(
          `${server_} substitutes ${edit.use.expression} by the indexed generated column ${edit.use.name}: the statement can stay as written. It then still reads ${edit.base} from the row, so the index covers only the rewritten statement naming ${edit.use.name}.`,
        );
        if (
          table.covering &&
          !table.parts.some((part) => part.column?.toLowerCase() === edit.base.toLowerCase())
        )
          table.covering = false;
      } else
        table.notes.push(
          `${server_} does not substitute ${edit.use.expression} by the generated column ${edit.use.name} (measured on 10.11: the index is ignored for the expression): the query must change to name ${edit.use.name} (the rewritten statement).`,
        );
    }
  }
  const uses = edits
    .map((edit) => edit.use)
    .filter(
      (use, i, all) => all.findIndex((other) => other.table === use.table && other.name === use.name) === i,
    );
  plan.generatedColumns = uses;
  plan.rewrittenSql = rewritten;
  plan.queryMustChange = !substitutes;
  plan.notes.push(
    substitutes
      ? `Function-wrapped predicates are keyed through generated columns (${uses.map((use) => use.name).join(', ')}); the statement may stay as written (the server substitutes them), the rewritten one names the columns.`
      : `The query must change: ${server_} uses the index only when the statement names the generated column${uses.length === 1 ? '' : 's'} ${uses.map((use) => use.name).join(', ')} instead of ${uses.map((use) => use.expression).join(', ')} (the rewritten statement; the same rows).`,
  );
  return plan;
}

/** `ALTER TABLE t …` with `ADD COLUMN c <definition>` clauses first; LOCK=NONE becomes LOCK=SHARED (ERROR 1846 otherwise). */
export function withAddedColumns(statement: string, columns: readonly GeneratedColumnUse[]): string {
  const match = /^\s*ALTER\s+TABLE\s+(`(?:[^`]|``)+`|\S+)\s+/i.exec(statement);
  if (!match || columns.length === 0) return statement;
  const clauses = columns
    .filter((use) => use.definition)
    .map((use) => `ADD COLUMN ${quoteIdentifier(use.name)} ${use.definition}, `)
    .join('');
  return `${match[0]}${clauses}${statement.slice(match[0].length)}`.replace(
    /\bLOCK\s*=\s*NONE\b/i,
    'LOCK=SHARED',
  );
}

/**
 * The new generated columns `parts` key on that `added` (table|column → who adds it) does not hold yet;
 * records `by` as the one that adds them.
 */
export function generatedColumnsToAdd(
  table: string,
  parts: readonly DesignedPart[],
  added: Map<string, string>,
  by: string,
): GeneratedColumnUse[] {
  const result: GeneratedColumnUse[] = [];
  for (const part of parts) {
    if (!part.column || !part.generated) continue;
    const key = `${table.toLowerCase()}|${part.column.toLowerCase()}`;
    if (added.has(key)) continue;
    added.set(key, by);
    result.push({ table, name: part.column, ...part.generated, existing: false });
  }
  return result;
}
