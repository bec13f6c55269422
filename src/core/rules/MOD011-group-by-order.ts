// MOD011: `GROUP BY a DESC` — ASC/DESC on GROUP BY items was removed in MySQL 8.0.13 (ERROR 1064); MariaDB still accepts it.
/*
 * Design note.
 * - node-sql-parser rejects the syntax, so the facts come from the tolerant re-parse
 *   (`context.tolerated.groupByOrder`, positions in the statement text), not from the AST.
 * - Whether the server accepts it is the `groupByOrder` capability (MySQL < 8.0.13, every MariaDB).
 *   Where it is rejected the finding predicts ER_PARSE_ERROR with the server's `near '…'` text: the rest
 *   of the statement from the keyword, at most 80 characters (verified on MySQL 8.0.33).
 * - Where it is accepted the finding is info only: it breaks on a move to MySQL 8.0.13+.
 */

import { predictError } from '../sqlmode/modes.js';
import { type AstNode, isNode, spanOf } from '../sql/ast.js';
import { defineRule } from './engine.js';

/** Every GROUP BY item of the statement, nested queries included. */
function groupByItems(ast: AstNode): AstNode[] {
  const items: AstNode[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isNode(value)) return;
    if (isNode(value.groupby) && Array.isArray(value.groupby.columns))
      items.push(...value.groupby.columns.filter(isNode));
    for (const key in value) if (key !== 'loc') visit(value[key]);
  };
  visit(ast);
  return items;
}

export const rule = defineRule({
  meta: {
    id: 'MOD011',
    name: 'sql-mode.group-by-order',
    category: 'sql-mode',
    severity: 'error',
    title: 'ASC/DESC on GROUP BY',
    rationale:
      'MySQL 5.7 and earlier sorted grouped results and let GROUP BY items carry ASC/DESC. MySQL 8.0 stopped sorting implicitly and 8.0.13 removed the syntax: the same query fails with ERROR 1064 after an upgrade, while MariaDB still accepts it.',
    appliesTo: ['select', 'insert', 'replace', 'update', 'delete', 'create'],
    messages: {
      removed:
        'GROUP BY {{item}} {{direction}}: ASC/DESC on GROUP BY was removed in MySQL 8.0.13, so this fails with ERROR 1064. Sort with ORDER BY {{item}} {{direction}}.',
      accepted:
        'GROUP BY {{item}} {{direction}} is accepted here, but fails with ERROR 1064 on MySQL 8.0.13+ (and MySQL 8.0 no longer sorts grouped results). Sort with ORDER BY {{item}} {{direction}}.',
    },
    docs: {
      antiPattern: 'SELECT profile_id, COUNT(*) FROM events_t GROUP BY profile_id DESC',
      bestPractice: 'SELECT profile_id, COUNT(*) FROM events_t GROUP BY profile_id ORDER BY profile_id DESC',
      notes: [
        'The SQL parser rejects this syntax; Sargable recognises it with a token scan (strings, quoted identifiers and comments are skipped) and reports it at the ASC/DESC keyword.',
        'Accepted by MySQL before 8.0.13 (deprecated since 5.7) and by every MariaDB version.',
      ],
    },
  },
  detect(context) {
    const marks = context.tolerated?.groupByOrder ?? [];
    if (marks.length === 0) return;
    const accepted = context.server.capabilities.groupByOrder;
    const items = groupByItems(context.ast)
      .map((node) => ({ node, span: spanOf(node) }))
      .filter((item) => item.span !== undefined);
    for (const mark of marks) {
      const before = items
        .filter((item) => (item.span?.end ?? 0) <= mark.start)
        .sort((a, b) => (b.span?.end ?? 0) - (a.span?.end ?? 0))[0];
      const item = before ? context.textOf(before.node).trim() : '';
      const line = context.sql.slice(0, mark.start).split('\n').length;
      context.report({
        messageId: accepted ? 'accepted' : 'removed',
        data: { item: item || '…', direction: mark.direction },
        severity: accepted ? 'info' : 'error',
        span: { start: mark.start, end: mark.end },
        table: null,
        columns: [],
        expression: `${item ? `${item} ` : ''}${mark.text}`,
        ...(accepted
          ? {}
          : {
              predictedError: predictError(1064, context.flavor, {
                near: context.sql.slice(mark.start, mark.start + 80),
                line,
              }),
            }),
        notes: [
          `Fix: drop ${mark.direction} from GROUP BY and add ORDER BY ${item || 'the grouped columns'} ${mark.direction}.`,
        ],
      });
    }
  },
});
