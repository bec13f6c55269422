// Bench: pollLocks() with 10,000 row locks held by one transaction and 20 waiters (target: one poll <= 200 ms,
// the first one included).
// Usage: npx tsx bench/locks/poll.ts mysql://user:pass@127.0.0.1:3306/ [more URLs]
//
// Prints, per server:
//   - the process's FIRST poll as the live view makes it (`rewrites: 'lazy'`: no parse inside the poll),
//     nothing warmed before it but the connection and server detection;
//   - cold-cache polls (rewrite cache cleared before each) and warm polls, min/median/max;
//   - how long the background rewrites of the 20 statements took after the first poll returned;
//   - the CLI's poll (`rewrites: true`, every statement parsed first), cold cache: allowed to be slower;
//   - the opt-in grouped lock counts (walks all 10,000 locks).
import mysql from 'mysql2/promise';
import {
  cachedStatementRewrites,
  clearRewriteCache,
  pollLocks,
  type PollOptions,
} from '../../src/main/services/locks.js';
import { detectServerInfo } from '../../src/main/services/server-info.js';

const ROWS = 10_000;
const WAITERS = 20;
const RUNS = 7;

function stats(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (index: number) => sorted[index]?.toFixed(1);
  return `min=${at(0)} median=${at(Math.floor(sorted.length / 2))} max=${at(sorted.length - 1)} ms (n=${sorted.length})`;
}

async function bench(url: string): Promise<void> {
  const open = () =>
    mysql.createConnection({
      uri: url,
      multipleStatements: true,
      dateStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
    });
  const admin = await open();
  const db = `sargable_bench_locks_${process.pid}`;
  await admin.query(
    `CREATE DATABASE ${db}; USE ${db}; CREATE TABLE t (id INT PRIMARY KEY, v INT) ENGINE=InnoDB`,
  );
  for (let start = 0; start < ROWS; start += 1000) {
    await admin.query(
      `INSERT INTO t VALUES ${Array.from({ length: 1000 }, (_, i) => `(${start + i + 1}, 0)`).join(',')}`,
    );
  }
  const holder = await open();
  await holder.query(`USE ${db}`);
  await holder.query('START TRANSACTION');
  await holder.query('SELECT * FROM t FOR UPDATE');
  const waiters = await Promise.all(Array.from({ length: WAITERS }, open));
  const pending = waiters.map(async (waiter, index) => {
    await waiter.query(`USE ${db}`);
    await waiter.query('SET SESSION innodb_lock_wait_timeout = 60');
    return waiter.query(`SELECT * FROM t WHERE id = ${index * 400 + 1} FOR UPDATE`).catch(() => null);
  });
  const monitor = await open();
  const server = await detectServerInfo(monitor);
  // Wait until every waiter waits, counted with a plain query so no pollLocks() runs before the first poll.
  const waitSql =
    server.capabilities.dataLocks === true
      ? 'SELECT COUNT(*) AS n FROM performance_schema.data_lock_waits'
      : 'SELECT COUNT(*) AS n FROM information_schema.INNODB_LOCK_WAITS';
  for (let tries = 0; tries < 100; tries += 1) {
    const [[row]] = (await admin.query(waitSql)) as unknown as [[{ n: number }]];
    if (Number(row.n) >= WAITERS) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // The live view's trx cache (INNODB_TRX) refreshes every 0.1 s: let it see every waiter.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const label = `${server.flavor} ${server.version}`;
  const live: PollOptions = { rewrites: 'lazy' };

  let started = performance.now();
  let snapshot = await pollLocks(monitor, server, live);
  const first = performance.now() - started;
  const statements = [...new Set(snapshot.waits.map((wait) => wait.waiting.statement ?? ''))];
  console.log(
    `${label} FIRST poll (live view, lazy rewrites): ${first.toFixed(1)} ms, waits=${snapshot.waits.length} pending=${snapshot.waits.filter((wait) => wait.rewritesPending).length}`,
  );
  started = performance.now();
  while (statements.some((sql) => !cachedStatementRewrites(server, sql)))
    await new Promise((resolve) => setImmediate(resolve));
  console.log(
    `${label} background rewrites of ${statements.length} statements done ${(performance.now() - started).toFixed(1)} ms after the first poll returned`,
  );

  const measure = async (name: string, options: PollOptions, before?: () => void): Promise<void> => {
    const times: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      before?.();
      // Polls are at least 1 s apart in the UI; background rewrites of the previous poll run in between.
      await new Promise((resolve) => setTimeout(resolve, 250));
      while (
        statements.some((sql) => !cachedStatementRewrites(server, sql)) &&
        options.rewrites === 'lazy' &&
        !before
      )
        await new Promise((resolve) => setImmediate(resolve));
      const start = performance.now();
      snapshot = await pollLocks(monitor, server, options);
      times.push(performance.now() - start);
    }
    const rewrites = snapshot.waits.reduce((sum, wait) => sum + wait.rewrites.length, 0);
    const counted = snapshot.lockCounts.reduce((sum, count) => sum + count.count, 0);
    console.log(
      `${label} ${name}: waits=${snapshot.waits.length} rewrites=${rewrites} pending=${snapshot.waits.filter((wait) => wait.rewritesPending).length}${counted ? ` counted=${counted}` : ''} ${stats(times)}`,
    );
  };
  await measure('live poll, cold rewrite cache (cleared before each)', live, clearRewriteCache);
  await measure('live poll, warm (rewrites attached from the cache)', live);
  await measure('server queries only (rewrites off)', { rewrites: false });
  await measure(
    'CLI poll, cold cache (all 20 statements parsed inside the poll)',
    { rewrites: true },
    clearRewriteCache,
  );
  await measure('with lock counts (opt-in, walks the 10,000 locks)', { rewrites: 'lazy', lockCounts: true });
  await holder.query('ROLLBACK');
  await Promise.all(pending);
  await admin.query(`DROP DATABASE ${db}`);
  await Promise.all([admin, holder, monitor, ...waiters].map((connection) => connection.end()));
}

for (const url of process.argv.slice(2)) await bench(url);
