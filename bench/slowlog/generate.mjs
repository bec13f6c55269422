// Writes a deterministic, realistic MySQL 8.0 slow log (log_slow_extra=ON) of about N MiB.
// Usage: node bench/slowlog/generate.mjs OUTFILE [MiB]
import { createWriteStream } from 'node:fs';
import { mulberry32 } from './random.mjs';

const rand = mulberry32(20261121);
const int = (n) => Math.floor(rand() * n);
const pick = (list) => list[int(list.length)];
const str = (n) => Array.from({ length: n }, () => 'abcdefghijklmnopqrstuvwxyz'[int(26)]).join('');
const ids = (n) => Array.from({ length: n }, () => int(100000)).join(',');

// Query shapes seen in OLTP logs (sysbench-like plus an app's ORM traffic).
const shapes = [
  () => `SELECT c FROM sbtest${1 + int(4)} WHERE id=${int(20000)}`,
  () => `SELECT c FROM sbtest${1 + int(4)} WHERE id BETWEEN ${int(20000)} AND ${int(20000)}`,
  () => `SELECT SUM(k) FROM sbtest${1 + int(4)} WHERE id BETWEEN ${int(20000)} AND ${int(20000)}`,
  () => `SELECT c FROM sbtest${1 + int(4)} WHERE id BETWEEN ${int(20000)} AND ${int(20000)} ORDER BY c`,
  () =>
    `SELECT DISTINCT c FROM sbtest${1 + int(4)} WHERE id BETWEEN ${int(20000)} AND ${int(20000)} ORDER BY c`,
  () => `UPDATE sbtest${1 + int(4)} SET k=k+1 WHERE id=${int(20000)}`,
  () => `UPDATE sbtest${1 + int(4)} SET c='${str(60)}' WHERE id=${int(20000)}`,
  () => `DELETE FROM sbtest${1 + int(4)} WHERE id=${int(20000)}`,
  () =>
    `INSERT INTO sbtest${1 + int(4)} (id, k, c, pad) VALUES (${int(20000)}, ${int(20000)}, '${str(40)}', '${str(20)}')`,
  () => 'BEGIN',
  () => 'COMMIT',
  () =>
    `SELECT o.id, o.total, c.name\nFROM orders o\n  JOIN customers c ON c.id = o.customer_id\nWHERE o.created_at >= '2026-0${1 + int(9)}-1${int(9)}'\n  AND o.status IN (${ids(1 + int(6))})\nORDER BY o.created_at DESC\nLIMIT ${int(50)}, 25`,
  () => `SELECT * FROM users WHERE email = '${str(8)}@example.com' LIMIT 1`,
  () => `SELECT /* app:profile */ id, name FROM products WHERE id IN (${ids(1 + int(30))})`,
  () =>
    `INSERT INTO audit_log (user_id, action, at) VALUES (${int(5000)}, '${pick(['login', 'logout', 'view'])}', NOW()), (${int(5000)}, 'view', NOW())`,
  () => `SELECT COUNT(*) FROM sessions WHERE last_seen < NOW() - INTERVAL ${int(60)} MINUTE`,
  () =>
    `UPDATE carts SET updated_at = NOW(), items = ${int(20)} WHERE id = ${int(90000)} AND owner = '${str(10)}'`,
  () =>
    `SELECT p.* FROM posts p WHERE p.author_id = ${int(1000)} AND p.deleted_at IS NULL ORDER BY p.id DESC LIMIT 20`,
  () => `SHOW GLOBAL STATUS LIKE 'Threads_%'`,
  () => `CALL refresh_stats(${int(100)}, '${str(5)}')`,
];
const weights = [30, 6, 6, 6, 6, 10, 10, 5, 5, 12, 12, 4, 6, 4, 3, 2, 3, 3, 1, 1];
const cumulative = [];
weights.reduce((sum, w, i) => (cumulative[i] = sum + w), 0);
const totalWeight = cumulative[cumulative.length - 1];
function shape() {
  const r = rand() * totalWeight;
  return shapes[cumulative.findIndex((c) => r < c)]();
}

const out = process.argv[2];
const targetBytes = Number(process.argv[3] ?? 100) * 1024 * 1024;
if (!out) throw new Error('usage: node bench/slowlog/generate.mjs OUTFILE [MiB]');
const stream = createWriteStream(out);
let bytes = 0;
let events = 0;
let time = Date.UTC(2026, 10, 21, 22, 0, 0) * 1000;
const write = (text) =>
  stream.write(text) ? Promise.resolve() : new Promise((resolve) => stream.once('drain', resolve));

stream.write(
  '/usr/sbin/mysqld, Version: 8.0.33 (MySQL Community Server - GPL). started with:\nTcp port: 3306  Unix socket: /tmp/mysql.sock\nTime                 Id Command    Argument\n',
);
let block = '';
while (bytes < targetBytes) {
  time += 50 + int(2000);
  const start = new Date(time / 1000).toISOString().replace('Z', `${String(time % 1000).padStart(3, '0')}Z`);
  const queryTime = rand() < 0.02 ? 0.5 + rand() * 3 : rand() * rand() * 0.05;
  const thread = 8 + int(64);
  const sent = int(100);
  const examined = sent + int(5000);
  const db = pick(['sbtest', 'sbtest', 'sbtest', 'shop', 'app']);
  const sql = shape();
  let text = `# Time: ${start}\n# User@Host: ${pick(['sbtest', 'app', 'report'])}[${pick(['sbtest', 'app', 'report'])}] @ localhost [127.0.0.1]  Id: ${thread}\n`;
  text += `# Query_time: ${queryTime.toFixed(6)}  Lock_time: ${(rand() * 0.0001).toFixed(6)} Rows_sent: ${sent}  Rows_examined: ${examined} Thread_id: ${thread} Errno: 0 Killed: 0 Bytes_received: ${sql.length} Bytes_sent: ${60 + sent * 40} Read_first: ${int(2)} Read_last: 0 Read_key: ${int(3)} Read_next: ${int(100)} Read_prev: 0 Read_rnd: 0 Read_rnd_next: ${int(5000)} Sort_merge_passes: 0 Sort_range_count: 0 Sort_rows: ${int(100)} Sort_scan_count: ${int(2)} Created_tmp_disk_tables: 0 Created_tmp_tables: ${int(2)} Count_hit_tmp_table_size: 0 Start: ${start} End: ${start}\n`;
  if (rand() < 0.3) text += `use ${db};\n`;
  text += `SET timestamp=${Math.floor(time / 1e6)};\n${sql};\n`;
  if (rand() < 0.00005) {
    text +=
      '/usr/sbin/mysqld, Version: 8.0.33 (MySQL Community Server - GPL). started with:\nTcp port: 3306  Unix socket: /tmp/mysql.sock\nTime                 Id Command    Argument\n';
  }
  block += text;
  bytes += text.length;
  events++;
  if (block.length > 1 << 20) {
    await write(block);
    block = '';
  }
}
await write(block);
stream.end();
await new Promise((resolve) => stream.on('finish', resolve));
process.stdout.write(`${out}: ${bytes} bytes, ${events} events\n`);
