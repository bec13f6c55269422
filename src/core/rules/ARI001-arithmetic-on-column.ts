// ARI001: arithmetic on the column side of a predicate (`price * 1.2 > 100`, `id + 1 = 5`).

import { defineRule } from './engine.js';
import { expressionServedByIndex, reportWrappedSites } from './utils/wrapped-site.js';

export const rule = defineRule({
  meta: {
    id: 'ARI001',
    name: 'predicate.arithmetic-on-column',
    category: 'arithmetic-on-column',
    severity: 'warning',
    title: 'Arithmetic on a column in a predicate',
    rationale:
      'The optimizer does not solve equations: `col + 1 = 5` cannot seek an index on col, while the equivalent `col = 4` can.',
    appliesTo: ['select', 'update', 'delete', 'insert', 'replace'],
    messages: {
      wrapped:
        'Arithmetic ({{wrapper}}) on column {{column}}: an index on {{column}} cannot serve this predicate, so every row is read.',
      wrappedOrder:
        'Arithmetic ({{wrapper}}) on column {{column}} in {{clause}}: an index on {{column}} cannot provide this order.',
      servedOnlyByName:
        'Arithmetic ({{wrapper}}) on column {{column}}. Generated column {{generated}} is indexed with this expression, but {{flavorName}} does not substitute it: name {{generated}} in the query.',
    },
    docs: {
      antiPattern: 'SELECT * FROM orders WHERE id + 1 = 5',
      bestPractice: 'SELECT * FROM orders WHERE id = 5 - 1',
    },
    peers: { soar: ['FUN.001'] },
  },
  detect(context) {
    reportWrappedSites(context, { kinds: ['arithmetic'], servedBy: expressionServedByIndex });
  },
});
