// The index names a suggestion's DDL creates (its indexName and every ADD [UNIQUE] INDEX|KEY), lowercased:
// what integration tests look for in EXPLAIN's keys after applying the suggestion.
import type { Suggestion } from '../../src/core/model/report.js';

export function createdIndexes(suggestion: Suggestion): string[] {
  const names = new Set<string>();
  if (suggestion.indexName) names.add(suggestion.indexName.toLowerCase());
  for (const ddl of suggestion.ddl)
    for (const match of ddl.matchAll(/\bADD\s+(?:UNIQUE\s+)?(?:INDEX|KEY)\s+`?([\w$]+)`?/gi))
      names.add(match[1]!.toLowerCase());
  return [...names];
}
