// A child process for the history crash test: records windows into FILE in a loop, printing each
// stored window's id, until it is killed.
import { HistoryService } from '../../src/main/services/history.js';

const file = process.argv[2]!;
const history = new HistoryService(file);
const classes = Array.from({ length: 400 }, (_, i) => ({
  id: `shop/${i}`,
  checksum: null,
  digest: String(i),
  fingerprint: `select * from t${i} where a = ?`,
  schemas: ['shop'],
  count: 1 + (i % 7),
  totalSeconds: 0.01 * (1 + (i % 11)),
  latency: { min: null, median: null, avg: null, p95: 0.01, p99: null, max: 0.02, lifetime: true },
  lockSeconds: 0,
  rowsSent: 1,
  rowsExamined: 10,
  firstSeen: null,
  lastSeen: null,
  example: `SELECT * FROM t${i} WHERE a = ${i}`,
  normalized: null,
  histogram: null,
  execution: { tmpTables: 0, tmpDiskTables: 0, filesorts: 0, fullScans: 0, fullJoins: 0 },
}));
for (;;) {
  const now = new Date().toISOString();
  const stored = await history.record(
    { source: 'performance_schema', label: 'crash test', start: now, end: now, events: 1, classes },
    { profile: 'crash', server: 'db:3306', production: false },
  );
  process.stdout.write(`${stored!.windowId}\n`);
}
