// MOD010: INSERT/REPLACE/UPDATE/DELETE IGNORE turns strict-mode errors into warnings: bad values are silently adjusted, not only duplicates skipped.

import { hasIgnore, spanFor } from '../sqlmode/statement.js';
import { defineRule } from './engine.js';

export const rule = defineRule({
  meta: {
    id: 'MOD010',
    name: 'sql-mode.ignore-modifier',
    category: 'sql-mode',
    severity: 'info',
    title: 'IGNORE downgrades data errors to warnings',
    rationale:
      "IGNORE is often added to skip duplicate keys, but it also turns every strict-mode error (1364, 1406, 1264, 1292, 1365) into a warning: strings are cut, numbers clipped and invalid dates stored as '0000-00-00' without failing the statement.",
    appliesTo: ['insert', 'replace', 'update', 'delete'],
    messages: {
      ignore:
        'IGNORE turns strict-mode errors into warnings: invalid values are stored adjusted (cut, clipped, zero dates) instead of failing. For duplicates only, prefer INSERT … ON DUPLICATE KEY UPDATE.',
    },
    docs: {
      antiPattern: "INSERT IGNORE INTO users (id, country) VALUES (1, 'Germany')",
      bestPractice:
        "INSERT INTO users (id, country) VALUES (1, 'DE') ON DUPLICATE KEY UPDATE country = VALUES(country)",
      notes: [
        'UPDATE IGNORE and DELETE IGNORE are recognised by a token scan (the SQL parser rejects them) and reported the same way.',
      ],
    },
  },
  detect(context) {
    if (!hasIgnore(context.ast, context.tolerated)) return;
    const mark = context.tolerated?.ignore;
    context.report({
      messageId: 'ignore',
      span: mark ? { start: mark.start, end: mark.end } : spanFor(context.sql, null, 'ignore'),
      table: null,
      columns: [],
      expression: 'IGNORE',
      notes: ['Run SHOW WARNINGS after the statement to see what was changed.'],
    });
  },
});
