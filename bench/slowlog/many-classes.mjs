// Writes a MySQL 8.0 slow log (log_slow_extra=ON) with N distinct fingerprints, for the memory bench.
// Usage: node bench/slowlog/many-classes.mjs OUTFILE [CLASSES=110000] [EVENTS_PER_CLASS=3]
/*
 * Each class is its own table name spelled in letters (digits in identifiers fingerprint to `?`),
 * in a few query shapes (point select, range, update, multi-row insert, a join), with times,
 * rows and users that vary per event; events of one class are spread over the file.
 */
import { createWriteStream } from 'node:fs';
import { mulberry32 } from './random.mjs';

const [out, classesArg, perClassArg] = process.argv.slice(2);
if (!out) {
  console.error('usage: node bench/slowlog/many-classes.mjs OUTFILE [CLASSES] [EVENTS_PER_CLASS]');
  process.exit(2);
}
const classes = Number(classesArg ?? 110_000);
const perClass = Number(perClassArg ?? 3);

const rand = mulberry32(20261126);
const int = (n) => Math.floor(rand() * n);
const letters = (i) => {
  let s = '';
  do {
    s = String.fromCharCode(97 + (i % 26)) + s;
    i = Math.floor(i / 26);
  } while (i > 0);
  return s;
};
const shapes = [
  (t) => `SELECT id, name, total FROM t_${t} WHERE id = ${int(1e6)}`,
  (t) =>
    `SELECT COUNT(*) FROM t_${t} WHERE created_at >= '2026-11-${10 + int(18)}' AND status IN (${int(9)}, ${int(9)})`,
  (t) => `UPDATE t_${t} SET total = total + ${int(100)}, note = 'n${int(1e5)}' WHERE id = ${int(1e6)}`,
  (t) =>
    `INSERT INTO t_${t} (id, name, total) VALUES (${int(1e6)}, 'x${int(1e5)}', ${int(1e4)}), (${int(1e6)}, 'y', 1)`,
  (t) =>
    `SELECT a.id, b.v\nFROM t_${t} a\n  JOIN t_${t}_detail b ON b.a_id = a.id\nWHERE a.owner = ${int(1e5)}\nORDER BY a.id DESC\nLIMIT 20`,
];

const stream = createWriteStream(out);
const write = (text) =>
  stream.write(text) ? Promise.resolve() : new Promise((r) => stream.once('drain', r));
await write(
  '/usr/sbin/mysqld, Version: 8.0.33 (MySQL Community Server - GPL). started with:\nTcp port: 3306  Unix socket: /tmp/mysql.sock\nTime                 Id Command    Argument\n',
);
let clock = Date.UTC(2026, 10, 26, 8, 0, 0) * 1000;
for (let round = 0; round < perClass; round++) {
  let chunk = '';
  for (let c = 0; c < classes; c++) {
    clock += 1 + int(400);
    const iso = new Date(Math.floor(clock / 1000)).toISOString().slice(0, 19);
    const micros = String(clock % 1e6).padStart(6, '0');
    const q = ((int(5000) + 1) / 1e6) * (1 + int(50));
    const table = letters(c);
    chunk +=
      `# Time: ${iso}.${micros}Z\n# User@Host: app${letters(int(20))}[app] @  [10.0.${int(4)}.${int(250)}]  Id: ${100 + int(400)}\n` +
      `# Query_time: ${q.toFixed(6)}  Lock_time: 0.000${String(int(999)).padStart(3, '0')} Rows_sent: ${int(50)}  Rows_examined: ${int(5000)} Thread_id: ${100 + int(400)} Errno: 0 Killed: 0 Bytes_received: ${int(400)} Bytes_sent: ${int(4000)} Read_first: 0 Read_last: 0 Read_key: ${int(9)} Read_next: ${int(50)} Read_prev: 0 Read_rnd: 0 Read_rnd_next: ${int(3) === 0 ? int(5000) : 0} Sort_merge_passes: 0 Sort_range_count: 0 Sort_rows: ${int(20)} Sort_scan_count: ${int(2)} Created_tmp_disk_tables: 0 Created_tmp_tables: ${int(2)} Start: ${iso}.000000Z End: ${iso}.${micros}Z\n` +
      (c % 1000 === 0 ? `use app_${letters(c % 7)};\n` : '') +
      `SET timestamp=${Math.floor(clock / 1e6)};\n${shapes[c % shapes.length](table)};\n`;
    if (chunk.length > 1 << 20) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk);
}
stream.end();
await new Promise((resolve) => stream.on('finish', resolve));
