// What each locking-read rewrite means for the application: caveats, the error it raises, a mysql2 snippet.
/*
 * Design note.
 * A rewrite the engine (rewrite.ts) has checked gets its description here: NOWAIT fails at once (ERROR 3572
 * on MySQL, 1205 on MariaDB), WAIT n after n seconds (1205), SKIP LOCKED returns only unlocked rows (never
 * recommended on an aggregate: skipped rows silently change the result). The session
 * `innodb_lock_wait_timeout` alternative does not change the statement, so it is built from the text alone
 * and offered even when the statement cannot be rewritten.
 */

import type { LockRewrite, LockRewriteKind, LockTarget, RewriteOptions } from './rewrite-types.js';

/** Seconds for MariaDB `WAIT n` (default 5). */
export function waitSecondsOf(options: RewriteOptions): number {
  return Math.max(0, Math.floor(options.waitSeconds ?? 5));
}

export function describeRewrite(
  kind: Exclude<LockRewriteKind, 'lock-wait-timeout'>,
  sql: string,
  target: LockTarget,
  options: RewriteOptions,
  facts: { aggregates: boolean; movedLimit: boolean; notes: readonly string[] },
): LockRewrite {
  const code = target.capabilities.nowaitErrorCode ?? 1205;
  const notes: string[] = [];
  let snippet = '';
  let errorCode: number | null = null;
  let recommended = true;
  if (kind === 'nowait') {
    errorCode = code;
    notes.push(
      code === 3572
        ? 'Fails at once with ERROR 3572 (ER_LOCK_NOWAIT) when a candidate row is locked, instead of waiting up to innodb_lock_wait_timeout seconds.'
        : 'Fails at once with ERROR 1205 when a candidate row is locked (MariaDB uses the lock-wait-timeout code for NOWAIT).',
      'Only the statement fails; the transaction stays open: retry after a short back-off or tell the user the record is busy.',
    );
    snippet = errorSnippet(
      sql,
      code,
      'The row is locked by another transaction: report "busy" or retry after a back-off.',
    );
  } else if (kind === 'wait') {
    errorCode = 1205;
    notes.push(
      `Waits at most ${waitSecondsOf(options)} s for the lock, then fails with ERROR 1205 (MariaDB WAIT n).`,
      'Only the statement fails; the transaction stays open.',
    );
    snippet = errorSnippet(sql, 1205, 'Still locked after the wait: report "busy" or retry later.');
  } else {
    notes.push(
      'Returns only rows no other transaction has locked; locked rows are silently skipped, so the result is non-deterministic.',
      'Use it for work queues (each worker claims different rows). Never for reads whose correctness needs every row: totals, counts, uniqueness or existence checks.',
      'Unsafe for statement-based binary logging (binlog_format=STATEMENT): replicas may lock and change different rows. Use ROW or MIXED.',
      'An empty result means "nothing unlocked right now", not "nothing matches".',
    );
    if (facts.aggregates) {
      recommended = false;
      notes.unshift(
        'Not for this statement: it aggregates (COUNT/SUM/GROUP BY/DISTINCT), and skipped rows would silently change the result.',
      );
    }
    snippet = [
      'await conn.beginTransaction();',
      `const [rows] = await conn.query(${JSON.stringify(sql)});`,
      'if (rows.length === 0) {',
      '  await conn.commit(); // nothing unlocked right now: back off, then poll again',
      '} else {',
      '  // process the claimed rows; they stay locked until COMMIT',
      '  await conn.commit();',
      '}',
    ].join('\n');
  }
  if (facts.movedLimit)
    notes.push('LIMIT was moved before the locking clause, where both servers require it.');
  notes.push(...facts.notes);
  return { kind, sql, notes, snippet, errorCode, recommended };
}

function errorSnippet(sql: string, code: number, comment: string): string {
  return [
    'try {',
    `  const [rows] = await conn.query(${JSON.stringify(sql)});`,
    '  // … work with the locked rows, then COMMIT',
    '} catch (err) {',
    `  if (err.errno === ${code}) {`,
    `    // ${comment}`,
    '  } else {',
    '    throw err;',
    '  }',
    '}',
  ].join('\n');
}

export function lockWaitTimeoutRewrite(
  sql: string,
  target: LockTarget,
  options: RewriteOptions,
): LockRewrite {
  const seconds = Math.max(1, Math.floor(options.lockWaitTimeoutSeconds ?? 1));
  const notes = [
    `Lowers this session's innodb_lock_wait_timeout to ${seconds} s (1 is the minimum): the statement then fails with ERROR 1205 after that time instead of the default 50 s.`,
    'The setting stays for the whole session until reset; the statement itself is unchanged.',
  ];
  if (!target.capabilities.nowait)
    notes.unshift(
      'This server has no NOWAIT (MySQL >= 8.0.1, MariaDB >= 10.3); a short lock wait timeout is the closest alternative.',
    );
  const statement = `SET SESSION innodb_lock_wait_timeout = ${seconds};\n${sql};\nSET SESSION innodb_lock_wait_timeout = DEFAULT;`;
  return {
    kind: 'lock-wait-timeout',
    sql: statement,
    notes,
    snippet: [
      `await conn.query('SET SESSION innodb_lock_wait_timeout = ${seconds}');`,
      'try {',
      `  const [rows] = await conn.query(${JSON.stringify(sql)});`,
      '} catch (err) {',
      '  if (err.errno !== 1205) throw err;',
      '  // waited too long: report "busy" or retry later',
      '} finally {',
      "  await conn.query('SET SESSION innodb_lock_wait_timeout = DEFAULT');",
      '}',
    ].join('\n'),
    errorCode: 1205,
    recommended: true,
  };
}
