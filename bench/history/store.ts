// Bench: the capture history's sql.js store (src/main/services/history.ts) with 10,000 digest rows.
// Usage: npx tsx bench/history/store.ts
//
// Prints, in a fresh temp config dir:
//   - recording one window of 10,000 classes (load, insert, export, atomic write: the whole cycle);
//   - recording 50 windows of 200 classes one by one (10,000 rows, one file write per window);
//   - a trend query (top 50 classes, 20-window series) cold (new process state: file read + open)
//     and warm (cached database), and one class's history;
//   - the file size.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TopClass } from '../../src/core/capture/index.js';
import { HistoryService } from '../../src/main/services/history.js';

function topClass(i: number, window: number): TopClass {
  const count = 1 + ((i * 7 + window) % 97);
  const total = count * (0.001 + (i % 13) * 0.0007);
  return {
    id: `shop/${i.toString(16).padStart(32, '0')}`,
    checksum: null,
    digest: i.toString(16).padStart(32, '0'),
    fingerprint: `select c${i % 50}, c${i % 7} from t${i} where id = ? and status in (?+) order by created_at limit ?`,
    schemas: ['shop'],
    count,
    totalSeconds: total,
    latency: {
      min: null,
      median: null,
      avg: total / count,
      p95: (total / count) * 2,
      p99: null,
      max: total,
      lifetime: true,
    },
    lockSeconds: 0,
    rowsSent: count,
    rowsExamined: count * 20,
    firstSeen: '2026-01-01T00:00:00.000Z',
    lastSeen: '2026-01-01T00:01:00.000Z',
    example: `SELECT c1 FROM t${i} WHERE id = ${i * 31} AND status IN (1,2,3) ORDER BY created_at LIMIT 10`,
    normalized: null,
    histogram: null,
    execution: { tmpTables: 0, tmpDiskTables: 0, filesorts: 0, fullScans: 0, fullJoins: 0 },
  };
}

function window(index: number, classes: number) {
  const at = (m: number) => new Date(Date.UTC(2026, 0, 1, 0, m)).toISOString();
  return {
    source: 'performance_schema' as const,
    label: `bench ${index}`,
    start: at(index),
    end: at(index + 1),
    events: 0,
    classes: Array.from({ length: classes }, (_, i) => topClass(i, index)),
  };
}

const owner = { profile: 'bench', server: 'db:3306', production: false };
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sargable-history-bench-'));
  try {
    const one = path.join(dir, 'one.sqlite');
    let t = process.hrtime.bigint();
    await new HistoryService(one).record(window(0, 10_000), owner);
    console.log(
      `one window of 10,000 classes: ${ms(t).toFixed(0)} ms (includes compiling the WebAssembly once)`,
    );
    t = process.hrtime.bigint();
    await new HistoryService(one).record(window(1, 10_000), owner);
    console.log(
      `a second window of 10,000 classes: ${ms(t).toFixed(0)} ms; file ${(fs.statSync(one).size / 1e6).toFixed(2)} MB`,
    );

    const many = path.join(dir, 'many.sqlite');
    const history = new HistoryService(many);
    t = process.hrtime.bigint();
    for (let w = 0; w < 50; w++) await history.record(window(w, 200), owner);
    const total = ms(t);
    console.log(
      `50 windows x 200 classes (10,000 rows): ${total.toFixed(0)} ms, ${(total / 50).toFixed(1)} ms per window; file ${(fs.statSync(many).size / 1e6).toFixed(2)} MB`,
    );
    const cold = new HistoryService(many);
    t = process.hrtime.bigint();
    const trends = await cold.trends({ profile: 'bench', limit: 50, seriesWindows: 20 });
    console.log(
      `trend query cold (read + open + query): ${ms(t).toFixed(1)} ms, ${trends.classes.length} classes x ${trends.windows.length} windows`,
    );
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      t = process.hrtime.bigint();
      await cold.trends({ profile: 'bench', limit: 50, seriesWindows: 20 });
      times.push(ms(t));
    }
    times.sort((a, b) => a - b);
    console.log(
      `trend query warm: median ${times[10]!.toFixed(1)} ms (min ${times[0]!.toFixed(1)}, max ${times[19]!.toFixed(1)})`,
    );
    t = process.hrtime.bigint();
    await cold.classHistory({ classId: trends.classes[0]!.classId });
    console.log(`one class's history (100-window series): ${ms(t).toFixed(1)} ms`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
