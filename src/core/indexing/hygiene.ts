// Index hygiene: duplicate and left-prefix-redundant indexes, as pt-duplicate-key-checker finds them.
//
// Design note: a non-unique B-tree index is redundant when another visible B-tree index of the same
// table starts with the same key parts (same columns, same prefix lengths, same expressions): every
// lookup it serves, the longer one serves. InnoDB appends the primary key to every secondary index, so
// an index that ends with the primary-key columns in order is redundant with the same index without
// them. Unique and primary indexes are constraints and never proposed for dropping. The drop is offered
// in the safe order: on MySQL 8 make the index INVISIBLE first (instant, reversible; watch the workload),
// on MariaDB >= 10.6 make it IGNORED; then DROP INDEX.

import type { IndexInfo, IndexPart, SchemaModel, TableInfo } from '../model/schema.js';
import type { ServerInfo } from '../model/server-info.js';
import { quoteIdentifier } from '../advice/index-ddl.js';

export interface RedundantIndex {
  table: string;
  index: string;
  kind: 'duplicate' | 'left-prefix' | 'primary-key-suffix';
  /** The index that serves everything this one serves. */
  coveredBy: string;
  /** Safe step first (INVISIBLE / IGNORED where the server has it), then the DROP; each runnable. */
  ddl: string[];
  notes: string[];
}

const partText = (part: IndexPart): string =>
  part.expression
    ? `e:${part.expression.replace(/[`\s()]/g, '').toLowerCase()}`
    : `c:${(part.column ?? '').toLowerCase()}${part.prefixLength ? `(${part.prefixLength})` : ''}`;

const describe = (index: IndexInfo): string =>
  `${index.name} (${index.parts.map((part) => part.column ?? part.expression ?? '?').join(', ')})`;

/** The safe order to drop an index: INVISIBLE (MySQL 8) or IGNORED (MariaDB >= 10.6) first, then DROP INDEX. */
export function dropSteps(table: string, index: string, server: ServerInfo): string[] {
  const name = quoteIdentifier(table);
  const indexName = quoteIdentifier(index);
  const ddl: string[] = [];
  if (server.capabilities.invisibleIndexes)
    ddl.push(`ALTER TABLE ${name} ALTER INDEX ${indexName} INVISIBLE;`);
  else if (server.capabilities.ignoredIndexes)
    ddl.push(`ALTER TABLE ${name} ALTER INDEX ${indexName} IGNORED;`);
  ddl.push(`ALTER TABLE ${name} DROP INDEX ${indexName};`);
  return ddl;
}

/** What to do between the safe step and the DROP. */
export function safeStepNote(server: ServerInfo): string {
  return `Run the first statement, watch the workload (the index is still maintained, the optimizer ignores it; undo with ${server.capabilities.invisibleIndexes ? 'VISIBLE' : 'NOT IGNORED'}), then drop it.`;
}

/** Redundant indexes of every table of the schema (or of `tables` when given). */
export function redundantIndexes(
  schema: SchemaModel,
  server: ServerInfo,
  tables?: readonly string[],
): RedundantIndex[] {
  const wanted = tables ? new Set(tables.map((name) => name.toLowerCase())) : null;
  const found: RedundantIndex[] = [];
  for (const table of schema.tables) {
    if (wanted && !wanted.has(table.name.toLowerCase())) continue;
    found.push(...redundantIn(table, server));
  }
  return found;
}

function redundantIn(table: TableInfo, server: ServerInfo): RedundantIndex[] {
  const btree = table.indexes.filter(
    (index) => index.kind === 'btree' && index.visible && index.parts.length > 0,
  );
  const primary = btree.find((index) => index.primary);
  const primaryParts = (primary?.parts ?? []).map(partText);
  const result: RedundantIndex[] = [];
  const dropped = new Set<IndexInfo>();
  for (const index of btree) {
    if (index.unique || index.primary) continue;
    const keys = index.parts.map(partText);
    let coveredBy: IndexInfo | undefined;
    let kind: RedundantIndex['kind'] = 'left-prefix';
    for (const other of btree) {
      if (other === index || dropped.has(other)) continue;
      const otherKeys = other.parts.map(partText);
      if (otherKeys.length < keys.length || !keys.every((key, i) => key === otherKeys[i])) continue;
      // Two identical non-unique indexes: keep the first one.
      if (otherKeys.length === keys.length && !other.unique && btree.indexOf(other) > btree.indexOf(index))
        continue;
      coveredBy = other;
      kind = otherKeys.length === keys.length ? 'duplicate' : 'left-prefix';
      break;
    }
    // (a, id) with PRIMARY KEY (id): the primary key is already at the end of (a).
    if (!coveredBy && primaryParts.length > 0 && keys.length > primaryParts.length) {
      const head = keys.slice(0, keys.length - primaryParts.length);
      const tail = keys.slice(keys.length - primaryParts.length);
      if (
        tail.every((key, i) => key === primaryParts[i]) &&
        !head.some((key) => primaryParts.includes(key))
      ) {
        const shorter = btree.find(
          (other) =>
            other !== index &&
            !dropped.has(other) &&
            other.parts.length >= head.length &&
            head.every((key, i) => key === partText(other.parts[i]!)),
        );
        if (shorter) {
          coveredBy = shorter;
          kind = 'primary-key-suffix';
        }
      }
    }
    if (!coveredBy) continue;
    dropped.add(index);
    const ddl = dropSteps(table.name, index.name, server);
    result.push({
      table: table.name,
      index: index.name,
      kind,
      coveredBy: coveredBy.name,
      ddl,
      notes: [
        kind === 'duplicate'
          ? `${describe(index)} duplicates ${describe(coveredBy)}.`
          : kind === 'left-prefix'
            ? `${describe(index)} is a left prefix of ${describe(coveredBy)}, which serves every lookup it serves.`
            : `${describe(index)} ends with the primary key, which InnoDB appends to ${describe(coveredBy)} anyway.`,
        ...(ddl.length > 1 ? [safeStepNote(server)] : []),
      ],
    });
  }
  return result;
}
