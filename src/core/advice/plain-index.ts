// Advice for a plain index on one column, after the query's equality columns: the DDL the server
// accepts (prefix lengths for TEXT/BLOB and over-long strings, within the 3072-byte key), or a note
// naming the existing index that already serves the predicate.

import type { Suggestion } from '../model/report.js';
import type { TableInfo } from '../model/schema.js';
import {
  existingIndexServing,
  keyPartsSql,
  plainKeyParts,
  quoteIdentifier,
  uniqueName,
  type ProposedPart,
} from './index-ddl.js';

/**
 * A plain index on `column` (after the query's equality columns), or a note naming the existing
 * index that already serves it (an index leading with the same parts, or with the column).
 */
export function plainIndexAdvice(
  table: TableInfo,
  column: string,
  equalityColumns: readonly string[] = [],
  /** The query the index is for when it is not the statement as written (a rewrite). */
  servesSql?: string,
): { suggestion?: Suggestion; note?: string } {
  const keyed = plainKeyParts(table, [...equalityColumns, column]);
  if (!keyed.ok) return { note: `No index proposed on ${column}: ${keyed.reason}.` };
  const parts = keyed.parts;
  const last = parts[parts.length - 1] as ProposedPart;
  const existing = existingIndexServing(table, parts) ?? existingIndexServing(table, [last]);
  if (existing) return { note: `Existing index ${existing.name} serves the predicate on ${column}.` };
  const suggestion = indexSuggestion(table, parts, [
    `Lets the predicate on ${column} seek instead of scanning.`,
    ...keyed.notes,
  ]);
  if (servesSql) {
    // The index is for a query that is not the statement's equivalent: this fix, index and query
    // together, does not return the same rows (the rewrite says what differs).
    suggestion.rewrittenSql = servesSql;
    suggestion.equivalent = false;
    suggestion.notes.push(
      'Not equivalent: it serves the rewritten query, which differs from the original (see the rewrite).',
    );
  }
  return { suggestion };
}

function indexSuggestion(table: TableInfo, parts: ProposedPart[], notes: string[]): Suggestion {
  const names = parts.map((part) => ('column' in part ? part.column : 'expr'));
  const indexName = uniqueName(
    `idx_${table.name}_${names.join('_')}`,
    table.indexes.map((index) => index.name),
  );
  return {
    kind: 'index',
    equivalent: true,
    ddl: [
      `ALTER TABLE ${quoteIdentifier(table.name)} ADD INDEX ${quoteIdentifier(indexName)} (${keyPartsSql(parts)});`,
    ],
    indexName,
    notes,
  };
}
