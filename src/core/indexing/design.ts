// Per-query index design by access path: one index per table of the query, as a DBA designs it.
//
// Design note: for each table the key is built in the order the server can use it:
//   1. equality columns (constants, and for a table read inside a join the join columns), any order
//      among themselves; ordered to line up with an existing index (so it can be extended), then by
//      selectivity when statistics are known;
//   2. IN lists (they seek like equalities but the rows come back per value, so no sort after them);
//   3. either ONE range column, or the ORDER BY / GROUP BY columns when everything before them is an
//      equality (the rows are then read in index order: no filesort, no temporary table). With a LIMIT
//      the sort wins (the scan stops after LIMIT rows), without one the range does;
//   4. when the query reads few other columns of the table, those columns, so the index covers it.
// InnoDB appends the primary key to every secondary index, so primary-key columns are never added at
// the end (ORDER BY id after equalities is already in index order). Before proposing anything the
// design is compared with the table's indexes: an index that seeks the same way serves the query (no
// new index), one that is a left prefix of the design is extended in one ALTER, and nothing is ever
// proposed that duplicates an index or is its left prefix. Server limits (3072 key bytes, 16 key
// parts, TEXT/BLOB prefixes, no JSON) are checked on the designed key.
//
// The work is split by seam: design-types.ts (the shapes), join-order.ts (which table drives),
// design-table.ts (one table's key), key-parts.ts (matching, ordering, limits, DDL of key parts).

import type { SchemaModel } from '../model/schema.js';
import type { ServerInfo } from '../model/server-info.js';
import { isNode, type AstNode } from '../sql/ast.js';
import { blockAccess, type BlockAccess } from './access.js';
import { nestedBlocks, type NestedBlock } from './blocks.js';
import { designTable } from './design-table.js';
import { distinctIndexDdl } from './distinct-ddl.js';
import { designWithGeneratedColumns } from './generated-columns.js';
import type { DesignOptions, QueryIndexPlan, TableIndexPlan } from './design-types.js';
import { joinOrder } from './join-order.js';
import { designOrBranches } from './or-branches.js';

export type {
  DesignedPart,
  DesignOptions,
  GeneratedColumnUse,
  OrRewrite,
  PartRole,
  QueryIndexPlan,
  TableIndexPlan,
} from './design-types.js';
export { descendingKeyParts, partsSql, whatIfDdl } from './key-parts.js';

/** Design indexes for one parsed statement. Never throws; undefined when the statement is not a query over known tables. */
export function designQueryIndexes(
  ast: AstNode,
  sql: string,
  schema: SchemaModel,
  server: ServerInfo,
  options: DesignOptions = {},
): QueryIndexPlan | undefined {
  if (schema.source === 'none') return undefined;
  const caps = server.capabilities;
  if (
    !options.withoutGenerated &&
    !options.blockOnly &&
    !caps.functionalIndexes &&
    caps.indexedVirtualColumns
  ) {
    // No functional key parts: function-wrapped predicates are keyed through generated columns.
    const notes: string[] = [];
    const generated = designWithGeneratedColumns(
      ast,
      sql,
      schema,
      server,
      options,
      (rewrittenAst, rewrittenSql, augmented, inner) =>
        designQueryIndexes(rewrittenAst, rewrittenSql, augmented, server, inner),
      notes,
    );
    if (generated) return generated;
    const plain = designQueryIndexes(ast, sql, schema, server, { ...options, withoutGenerated: true });
    if (plain) plain.notes.push(...notes);
    return plain;
  }
  const main = designBlock(ast, sql, schema, server, options);
  if (options.blockOnly) return main;
  let blocks: NestedBlock[] = [];
  try {
    blocks = nestedBlocks(ast);
  } catch {
    blocks = [];
  }
  if (blocks.length === 0) {
    if (main) distinctIndexDdl(main, schema, server.database);
    return main;
  }
  const plan: QueryIndexPlan = main ?? { tables: [], drivingTable: null, notes: [] };
  if (isNode(ast._next))
    plan.tables = plan.tables.map((table) => ({ ...table, scope: table.scope ?? 'UNION branch 1' }));
  for (const block of blocks) {
    const inner = designBlock(block.ast, sql, schema, server, {
      ...options,
      withoutOrBranches: true,
      blockOnly: true,
      ...(block.inColumn ? { inColumn: block.inColumn } : {}),
    });
    if (!inner) continue;
    plan.tables.push(...inner.tables.map((table) => ({ ...table, scope: block.scope })));
    plan.notes.push(...inner.notes.map((note) => `${block.scope}: ${note}`));
  }
  if (plan.tables.length === 0) return main;
  distinctIndexDdl(plan, schema, server.database);
  return plan;
}

/** One query block's design (its own tables only). */
function designBlock(
  ast: AstNode,
  sql: string,
  schema: SchemaModel,
  server: ServerInfo,
  options: DesignOptions,
): QueryIndexPlan | undefined {
  let access: BlockAccess | undefined;
  try {
    access = blockAccess(
      ast,
      sql,
      schema,
      server.database,
      server.flavor,
      options.inColumn ? [options.inColumn] : [],
    );
  } catch {
    return undefined;
  }
  if (!access || access.tables.length === 0) return undefined;
  const order = joinOrder(access, options);
  const plan: QueryIndexPlan = {
    tables: [],
    drivingTable: access.tables.length > 1 ? (access.tables[order.sequence[0] ?? 0]?.name ?? null) : null,
    notes: [...new Set(access.notes)],
  };
  if (order.why) plan.notes.push(order.why);
  if (access.unknownTables.length > 0)
    plan.notes.push(`No design for ${access.unknownTables.join(', ')}: the schema does not know it.`);
  const placed: number[] = [];
  for (const index of order.sequence) {
    const role: TableIndexPlan['role'] =
      access.tables.length === 1 ? 'only' : placed.length === 0 ? 'driving' : 'inner';
    plan.tables.push(designTable(access, index, placed, role, server, options));
    placed.push(index);
  }
  if (!options.withoutOrBranches)
    designOrBranches(ast, sql, schema, server, access, plan, (branchSql, branchAst) =>
      designQueryIndexes(branchAst, branchSql, schema, server, {
        ...options,
        withoutOrBranches: true,
        blockOnly: true,
      }),
    );
  return plan;
}

const designs = new WeakMap<AstNode, { schema: SchemaModel; plan: QueryIndexPlan | undefined }>();

/**
 * {@link designQueryIndexes} once per parsed statement and schema (the rule IDX001 and the report's
 * `indexPlan` read the same design).
 */
export function designFor(
  ast: AstNode,
  sql: string,
  schema: SchemaModel,
  server: ServerInfo,
): QueryIndexPlan | undefined {
  const known = designs.get(ast);
  if (known && known.schema === schema) return known.plan;
  const plan = designQueryIndexes(ast, sql, schema, server);
  designs.set(ast, { schema, plan });
  return plan;
}
