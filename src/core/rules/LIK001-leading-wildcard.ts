// LIK001: `LIKE '%…'` — a pattern that starts with a wildcard cannot seek a B-tree index.

import { suffixSearchAdvice } from '../advice/suffix-search.js';
import { hasDoubleQuoted, literalOf, quotesIdentifiers } from '../advice/literals.js';
import { isNode } from '../sql/ast.js';
import { defineRule, spanOf } from './engine.js';

export const rule = defineRule({
  meta: {
    id: 'LIK001',
    name: 'predicate.leading-wildcard',
    category: 'leading-wildcard',
    severity: 'warning',
    title: 'LIKE pattern starts with a wildcard',
    rationale:
      'A B-tree index is ordered by the leading characters. A pattern that starts with % or _ has no fixed prefix, so the server reads every row (or every index entry) and tests the pattern.',
    appliesTo: ['select', 'update', 'delete', 'insert', 'replace'],
    messages: {
      leadingWildcard:
        "LIKE '{{pattern}}' starts with a wildcard: an index on {{column}} cannot be used to find the rows.",
    },
    docs: {
      antiPattern: "SELECT id FROM users WHERE name LIKE '%son'",
      bestPractice: "SELECT id FROM users WHERE name LIKE 'son%'",
      notes: [
        'For word searches, a FULLTEXT index with MATCH … AGAINST serves the query; for suffix searches, index a generated column holding REVERSE(name) and search it with the reversed prefix.',
        'Patterns given as parameters are not checked: their value is unknown.',
      ],
    },
    peers: { soar: ['ARG.001'], sqle: ['dml_check_fuzzy_search'], ptQueryAdvisor: ['ARG.001'] },
  },
  detect(context) {
    for (const site of context.sites()) {
      if (site.operator !== 'LIKE' || site.clause === 'order-by' || site.clause === 'group-by') continue;
      const column = site.left;
      if (!isNode(column) || column.type !== 'column_ref') continue;
      // Under ANSI_QUOTES "%x" is a column name, not a pattern (the parser reads it as a string).
      if (quotesIdentifiers(context.server.sqlMode.session) && hasDoubleQuoted(site.right)) continue;
      const pattern = literalOf(site.right);
      if (pattern?.kind !== 'string' || !/^[%_]/.test(pattern.value)) continue;
      const span = spanOf(site.node);
      if (!span) continue;
      const [resolved] = context.resolveColumns(site, column);
      const name = resolved?.info?.name ?? resolved?.column ?? '';
      const suffix = /^%([^%_\\]+)$/.exec(pattern.value)?.[1];
      const advice =
        suffix && resolved
          ? suffixSearchAdvice({
              sql: context.sql,
              ast: context.ast,
              server: context.server,
              site,
              column: resolved,
              suffix,
            })
          : {};
      context.report({
        messageId: 'leadingWildcard',
        data: { pattern: pattern.value, column: name },
        span,
        table: resolved?.table?.name ?? resolved?.scopeTable?.table ?? null,
        columns: [name],
        expression: context.textOf(site.node),
        suggestions: advice.suggestion ? [advice.suggestion] : [],
        notes: [
          ...(advice.note ? [advice.note] : []),
          advice.suggestion
            ? 'A suffix search: the generated column REVERSE(column) with an index turns it into a prefix search (the suggestion).'
            : pattern.value.startsWith('%') && !/[%_]/.test(pattern.value.slice(1).replace(/%$/, ''))
              ? 'No rewrite is equivalent. For a word search use a FULLTEXT index and MATCH … AGAINST; for a suffix search index a generated column REVERSE(column) and compare it with the reversed suffix followed by %.'
              : 'No rewrite is equivalent; consider a FULLTEXT index with MATCH … AGAINST for word searches.',
        ],
      });
    }
  },
});
