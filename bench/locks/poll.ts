// Bench: one pollLocks() with 10,000 row locks held by one transaction and 20 waiters (target <= 200 ms).
// Usage: npx tsx bench/locks/poll.ts mysql://user:pass@127.0.0.1:3306/ [more URLs]
import mysql from 'mysql2/promise';
import { pollLocks } from '../../src/main/services/locks.js';
import { detectServerInfo } from '../../src/main/services/server-info.js';

const ROWS = 10_000;
const WAITERS = 20;
const RUNS = 5;

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
  let snapshot = await pollLocks(monitor, server, { rewrites: false });
  for (let tries = 0; snapshot.waits.length < WAITERS && tries < 50; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    snapshot = await pollLocks(monitor, server, { rewrites: false });
  }
  const cold = performance.now();
  await pollLocks(monitor, server);
  console.log(
    `${server.flavor} ${server.version} first poll with rewrites of ${WAITERS} distinct statements (cold cache): ${(performance.now() - cold).toFixed(1)} ms`,
  );
  const measure = async (label: string, options: Parameters<typeof pollLocks>[2]): Promise<void> => {
    const times: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const started = performance.now();
      snapshot = await pollLocks(monitor, server, options);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(
      `${server.flavor} ${server.version} ${label}: waits=${snapshot.waits.length} rewrites=${snapshot.waits.reduce((sum, wait) => sum + wait.rewrites.length, 0)} ` +
        `counted=${snapshot.lockCounts.reduce((sum, count) => sum + count.count, 0)} ms min=${times[0]?.toFixed(1)} median=${times[Math.floor(RUNS / 2)]?.toFixed(1)} max=${times[RUNS - 1]?.toFixed(1)}`,
    );
  };
  await measure('server queries only (rewrites off)', { rewrites: false });
  await measure('with rewrites (warm cache after the first poll above)', {});
  await measure('with lock counts (walks the 10,000 locks)', { lockCounts: true });
  await holder.query('ROLLBACK');
  await Promise.all(pending);
  await admin.query(`DROP DATABASE ${db}`);
  await Promise.all([admin, holder, monitor, ...waiters].map((connection) => connection.end()));
}

for (const url of process.argv.slice(2)) await bench(url);
