// Top queries rows: mapping from a real digest, filter and sort, CSV/JSON export read back, latency rebinning.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  csvField,
  decadeLatencyHistogram,
  rebinLatency,
  selectTopClasses,
  TOP_JSON_FORMAT,
  topClassesFromDigest,
  topClassesToCsv,
  topClassesToJson,
  topCsvColumns,
  topSortKeys,
  topSortValue,
  type LatencyBucket,
  type TopClass,
} from '../../../src/core/capture/index.js';
import { createDigest, parseSlowLog } from '../../../src/core/slowlog/index.js';

function digestOf(file: string) {
  const digest = createDigest();
  for (const event of parseSlowLog(readFileSync(file, 'latin1')).events) digest.add(event);
  return digest.result();
}

const result = digestOf('tests/fixtures/slowlogs/generated/mysql-workload.log');
const classes = topClassesFromDigest(result);

/** A small RFC 4180 reader, to read the export back. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

describe('topClassesFromDigest', () => {
  it('keeps every class with its statistics', () => {
    expect(classes.length).toBe(result.classes.length);
    expect(classes.reduce((sum, entry) => sum + entry.count, 0)).toBe(result.global.events);
    for (const [index, entry] of classes.entries()) {
      const source = result.classes[index]!;
      expect(entry).toMatchObject({
        id: source.checksum,
        fingerprint: source.fingerprint,
        count: source.queryCount,
        totalSeconds: source.queryTime?.sum ?? 0,
        latency: { p95: source.queryTime?.p95 ?? null, max: source.queryTime?.max ?? null, lifetime: false },
        example: source.example.sql,
        execution: source.execution,
      });
    }
  });

  it('carries the execution counters a MariaDB query_plan log has (null where it has none)', () => {
    const rows = topClassesFromDigest(digestOf('tests/fixtures/slowlogs/generated/mariadb-workload.log'));
    const grouped = rows.find((entry) => entry.fingerprint.includes('group by customer'));
    expect(grouped?.execution).toEqual({
      tmpTables: 0,
      tmpDiskTables: 0,
      filesorts: 0,
      fullScans: 1,
      fullJoins: 0,
    });
    const create = rows.find((entry) => entry.fingerprint.startsWith('create table'));
    expect(create?.execution).toEqual({
      tmpTables: null,
      tmpDiskTables: null,
      filesorts: null,
      fullScans: null,
      fullJoins: null,
    });
  });
});

describe('selectTopClasses', () => {
  it.each(topSortKeys)('sorts by %s, descending and ascending, nulls last', (key) => {
    for (const descending of [true, false]) {
      const sorted = selectTopClasses(classes, { sort: key, descending });
      expect(sorted.length).toBe(classes.length);
      const values = sorted.map((entry) => topSortValue(entry, key));
      const numbers = values.filter((value): value is number => value !== null);
      expect(values.slice(0, numbers.length)).toEqual(numbers);
      expect(numbers).toEqual([...numbers].sort((a, b) => (descending ? b - a : a - b)));
    }
  });

  it('keeps classes matching every word of the filter, case-insensitively', () => {
    const kept = selectTopClasses(classes, { filter: 'SELECT  Orders' });
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(classes.length);
    const expected = classes.filter((entry) => {
      const text = `${entry.fingerprint} ${entry.schemas.join(' ')}`.toLowerCase();
      return text.includes('select') && text.includes('orders');
    });
    expect(new Set(kept.map((entry) => entry.id))).toEqual(new Set(expected.map((entry) => entry.id)));
  });
});

describe('export', () => {
  it('csvField quotes and defuses formulas', () => {
    expect([null, 3, 'a', 'a,b', 'say "hi"', 'x\ny', '=1+1', '-- note', '@x'].map(csvField)).toEqual([
      '',
      '3',
      'a',
      '"a,b"',
      '"say ""hi"""',
      '"x\ny"',
      "'=1+1",
      "'-- note",
      "'@x",
    ]);
  });

  it('CSV reads back to the shown classes, one row each, in order', () => {
    const shown = selectTopClasses(classes, { sort: 'count' });
    const rows = readCsv(topClassesToCsv(shown));
    expect(rows[0]).toEqual([...topCsvColumns]);
    expect(rows.length).toBe(shown.length + 1);
    const column = (name: (typeof topCsvColumns)[number]) => topCsvColumns.indexOf(name);
    rows.slice(1).forEach((row, index) => {
      const entry = shown[index]!;
      expect(row.length).toBe(topCsvColumns.length);
      expect(row[column('rank')]).toBe(String(index + 1));
      expect(row[column('checksum')]).toBe(entry.checksum);
      expect(row[column('fingerprint')]).toBe(
        csvField(entry.fingerprint).replace(/^"|"$/g, '').replace(/""/g, '"'),
      );
      expect(Number(row[column('count')])).toBe(entry.count);
      expect(Number(row[column('total_s')])).toBe(entry.totalSeconds);
      expect(row[column('p95_s')]).toBe(entry.latency.p95 === null ? '' : String(entry.latency.p95));
      expect(row[column('example')]).toBe(entry.example);
      expect(row[column('tmp_tables')]).toBe(String(entry.execution.tmpTables ?? ''));
      expect(row[column('full_scans')]).toBe(String(entry.execution.fullScans ?? ''));
    });
  });

  it('JSON has the format tag, the source and every class with its rank', () => {
    const shown = classes.slice(0, 3);
    const parsed = JSON.parse(
      topClassesToJson({ source: { kind: 'file', label: 'x.log' }, events: 42 }, shown, new Date(0)),
    ) as {
      format: string;
      exportedAt: string;
      source: unknown;
      events: number;
      classes: (TopClass & { rank: number })[];
    };
    expect(parsed).toEqual({
      format: TOP_JSON_FORMAT,
      exportedAt: '1970-01-01T00:00:00.000Z',
      source: { kind: 'file', label: 'x.log' },
      events: 42,
      classes: shown.map((entry, index) => ({ rank: index + 1, ...entry })),
    });
  });
});

describe('rebinLatency', () => {
  // MySQL 8.0's bucket bounds: 10 µs, then ×10^(1/50) (about 4.7 %) per bucket.
  const server: LatencyBucket[] = Array.from({ length: 450 }, (_, index) => ({
    lowMs: index === 0 ? 0 : 0.01 * 10 ** ((index - 1) / 50),
    highMs: 0.01 * 10 ** (index / 50),
    count: index % 7 === 0 && index < 200 ? index + 1 : 0,
  }));

  it('keeps every statement and puts each bucket in the bin around its middle', () => {
    const { buckets, total } = rebinLatency(server, 20);
    const counted = server.reduce((sum, bucket) => sum + bucket.count, 0);
    expect(total).toBe(counted);
    expect(buckets.length).toBe(20);
    expect(buckets.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(counted);
    // One bucket at a time (with the range fixed by the first and last used bucket): its count is
    // in the bin that holds its geometric middle.
    const used = server.filter((b) => b.count > 0 && b.lowMs > 0);
    for (const bucket of used) {
      const alone = rebinLatency(
        server.map((b) => ({
          ...b,
          count: b === bucket ? 1000 : b === used[0] || b === used.at(-1) ? 1 : 0,
        })),
        20,
      );
      const middle = Math.sqrt(bucket.lowMs * bucket.highMs);
      const bin = alone.buckets.find((b) => b.lowMs <= middle && middle < b.highMs);
      expect(bin?.count, `bucket ${bucket.lowMs}`).toBeGreaterThanOrEqual(1000);
    }
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]!.lowMs).toBeCloseTo(buckets[i - 1]!.highMs, 9);
  });

  it('is empty without statements', () => {
    expect(rebinLatency([{ lowMs: 1, highMs: 2, count: 0 }])).toEqual({ buckets: [], total: 0 });
  });
});

describe('decadeLatencyHistogram', () => {
  it('turns a log class’s decade counts into labelled chart buckets', () => {
    expect({
      counts: decadeLatencyHistogram([0, 2, 0, 0, 0, 0, 0, 1]),
      none: decadeLatencyHistogram(undefined),
      empty: decadeLatencyHistogram([0, 0, 0, 0, 0, 0, 0, 0]),
    }).toEqual({
      counts: {
        total: 3,
        labels: ['1us', '10us', '100us', '1ms', '10ms', '100ms', '1s', '10s+'],
        buckets: [
          { lowMs: 0, highMs: 0.01, count: 0 },
          { lowMs: 0.01, highMs: 0.1, count: 2 },
          { lowMs: 0.1, highMs: 1, count: 0 },
          { lowMs: 1, highMs: 10, count: 0 },
          { lowMs: 10, highMs: 100, count: 0 },
          { lowMs: 100, highMs: 1000, count: 0 },
          { lowMs: 1000, highMs: 10_000, count: 0 },
          { lowMs: 10_000, highMs: 100_000, count: 1 },
        ],
      },
      none: null,
      empty: null,
    });
  });
});
