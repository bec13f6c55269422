// One DDL per index over a whole statement's plan: blocks and OR branches are designed apart, so two of
// them can design the same index, or both extend one existing index.
//
// Design note: a repeated index (same table, same key parts) keeps its DDL in the first entry only; the
// later ones say which entry's index serves them. Two extensions of one existing index would drop each
// other's work (each is `DROP INDEX i, ADD INDEX i (…)`), so the later one becomes a new index. A new
// index whose name an earlier entry took is renamed.

import { quoteIdentifier, uniqueName } from '../advice/index-ddl.js';
import { findTable, type SchemaModel } from '../model/schema.js';
import type { QueryIndexPlan } from './design-types.js';
import { partsSql } from './key-parts.js';

export function distinctIndexDdl(plan: QueryIndexPlan, schema: SchemaModel, database: string | null): void {
  const taken = new Map<string, string[]>();
  const seen = new Map<string, string>();
  const extended = new Set<string>();
  plan.tables = plan.tables.map((design, k) => {
    if (design.verdict !== 'create' && design.verdict !== 'extend') return design;
    const table = design.table.toLowerCase();
    const info = findTable(schema, design.table, database);
    if (!taken.has(table))
      taken.set(
        table,
        (info?.indexes ?? []).map((index) => index.name),
      );
    const names = taken.get(table)!;
    const keySql = partsSql(design.parts);
    const key = `${table}:${keySql.toLowerCase()}`;
    const label = design.scope ?? `entry ${k + 1}`;
    const earlier = seen.get(key);
    if (earlier !== undefined)
      return {
        ...design,
        ddl: [],
        notes: [...design.notes, `The same index is proposed for ${earlier}: it serves this one too.`],
      };
    seen.set(key, label);
    const entry = { ...design, notes: [...design.notes] };
    const extendedKey = `${table}:${(design.existingIndex ?? '').toLowerCase()}`;
    if (entry.verdict === 'extend' && extended.has(extendedKey)) {
      entry.verdict = 'create';
      entry.existingIndex = null;
      entry.indexName = uniqueName(
        `idx_${design.table}_${design.parts.map((part) => part.column ?? 'expr').join('_')}`,
        names,
      );
      entry.ddl = [
        `ALTER TABLE ${quoteIdentifier(design.table)} ADD INDEX ${quoteIdentifier(entry.indexName)} (${keySql});`,
      ];
      entry.notes.push(
        `${design.existingIndex ?? 'The index'} is already extended for another part of the statement: a new index instead.`,
      );
    } else if (
      entry.verdict === 'create' &&
      entry.indexName &&
      names.some((name) => name.toLowerCase() === entry.indexName!.toLowerCase())
    ) {
      const name = uniqueName(entry.indexName, names);
      entry.ddl = entry.ddl.map((text) =>
        text.replace(quoteIdentifier(entry.indexName!), quoteIdentifier(name)),
      );
      entry.indexName = name;
    }
    if (entry.verdict === 'extend') extended.add(extendedKey);
    if (entry.indexName && entry.verdict === 'create') names.push(entry.indexName);
    return entry;
  });
}
