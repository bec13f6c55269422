// LCK001: a locking read without NOWAIT / SKIP LOCKED waits for locked rows; offer the per-server rewrites.

import { rewriteLockingRead } from '../locks/rewrite.js';
import { containsLockingClause, findTrailingLocking } from '../locks/locking-clause.js';
import type { Suggestion } from '../model/report.js';
import { defineRule } from './engine.js';

const MAYBE_LOCKING = /\b(?:FOR\s+(?:UPDATE|SHARE)|SHARE\s+MODE)\b/i;

export const rule = defineRule({
  meta: {
    id: 'LCK001',
    name: 'locking-read.waits',
    category: 'locking-read',
    severity: 'info',
    title: 'Locking read waits for locked rows',
    rationale:
      'SELECT … FOR UPDATE / FOR SHARE / LOCK IN SHARE MODE waits up to innodb_lock_wait_timeout (50 s by default) for every row another transaction holds, and queues behind it. NOWAIT fails at once instead; SKIP LOCKED returns only the rows nobody holds (work queues). Both change what the statement means, so neither is equivalent.',
    appliesTo: ['select'],
    messages: {
      waits: '{{clause}} waits up to innodb_lock_wait_timeout for rows another transaction holds. {{advice}}',
    },
    docs: {
      antiPattern: 'SELECT id FROM jobs WHERE state = 0 ORDER BY id LIMIT 10 FOR UPDATE',
      bestPractice: 'SELECT id FROM jobs WHERE state = 0 ORDER BY id LIMIT 10 FOR UPDATE SKIP LOCKED',
      notes: [
        'Version gates: NOWAIT and SKIP LOCKED need MySQL ≥ 8.0.1; MariaDB has NOWAIT / WAIT n from 10.3 and SKIP LOCKED from 10.6. Older servers get the session innodb_lock_wait_timeout alternative.',
        'NOWAIT fails with ERROR 3572 on MySQL and 1205 on MariaDB; each suggestion shows how the application handles it.',
        'SKIP LOCKED is never offered as recommended for reads whose correctness needs all rows (aggregates); it is unsafe with statement-based binary logging.',
        'The same rewrites are offered for waiting statements in the Locks panel and by `sargable locks`.',
      ],
    },
  },
  detect(context) {
    // Rewriting parses the statement again: only for statements that have a locking clause at all
    // (a cheap text test first, then the token scan that skips strings and comments).
    if (!MAYBE_LOCKING.test(context.sql) || !containsLockingClause(context.sql)) return;
    const result = rewriteLockingRead(context.sql, context.server);
    if (result.status === 'not-locking-read') return;
    // Statements already failing fast or skipping on every clause get no finding.
    if (result.clauses.length > 0 && result.clauses.every((clause) => clause.option !== 'none')) return;
    const trailing = findTrailingLocking(context.sql);
    const clause = result.clauses[0]?.text ?? 'The locking read';
    const start = trailing?.start ?? 0;
    const end = context.sql.replace(/[\s;]+$/, '').length;
    const suggestions: Suggestion[] = result.rewrites.map((rewrite) => {
      const notes = [
        ...(rewrite.errorCode !== null
          ? [`On a lock conflict it fails with ERROR ${rewrite.errorCode}.`]
          : []),
        ...(rewrite.recommended ? [] : ['Not recommended for this statement.']),
        ...rewrite.notes,
      ];
      // The session-timeout alternative is three statements: shown in the notes, not as a rewrite of this one.
      return rewrite.kind === 'lock-wait-timeout'
        ? { kind: 'rewrite', equivalent: false, ddl: [], notes: [...notes, rewrite.sql] }
        : { kind: 'rewrite', equivalent: false, ddl: [], rewrittenSql: rewrite.sql, notes };
    });
    const kinds = new Set(result.rewrites.map((rewrite) => rewrite.kind));
    const advice =
      kinds.has('nowait') && kinds.has('skip-locked')
        ? 'To fail fast use NOWAIT; for a work queue use SKIP LOCKED.'
        : kinds.has('nowait')
          ? 'To fail fast use NOWAIT (this server has no SKIP LOCKED).'
          : 'This server has neither NOWAIT nor SKIP LOCKED: a short session innodb_lock_wait_timeout is the closest alternative.';
    context.report({
      messageId: 'waits',
      data: { clause, advice },
      span: { start, end: Math.max(end, start + 1) },
      table: null,
      columns: [],
      expression: context.sql.slice(start, end),
      suggestions,
      notes: [
        ...(result.reason ? [result.reason] : []),
        ...result.unavailable.map((entry) => `${entry.kind}: ${entry.reason}`),
      ],
    });
  },
});
