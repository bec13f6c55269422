// The optimised parser, digest and fingerprint key against a frozen copy of the previous implementation, on real, mutated and generated logs.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fingerprintKey } from '../../../src/core/fingerprint/fingerprint.js';
import {
  createDigest,
  createSlowLogParser,
  REPORTED_ATTRIBUTES,
  type DigestOptions,
  type DigestResult,
} from '../../../src/core/slowlog/index.js';
import { createDigest as referenceDigest } from '../../support/slowlog-reference/digest.js';
import { fingerprintKey as referenceKey } from '../../support/slowlog-reference/fingerprint.js';
import { createSlowLogParser as referenceParser } from '../../support/slowlog-reference/parser.js';

const fixtures = fileURLToPath(new URL('../../fixtures/slowlogs/', import.meta.url));
const logs = ['percona', 'generated'].flatMap((dir) =>
  readdirSync(fixtures + dir)
    .filter((name) => name.endsWith('.txt') || name.endsWith('.log'))
    .sort()
    .map((name) => ({
      name: `${dir}/${name}`,
      text: readFileSync(`${fixtures}${dir}/${name}`).toString('latin1'),
    })),
);

function digestOf(chunks: readonly string[], options: DigestOptions): DigestResult {
  const digest = createDigest({ ...options, ptCompatible: true });
  const parser = createSlowLogParser({ onEvent: digest.add, onSkip: digest.addSkip, ptCompatible: true });
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return digest.result();
}

/** Every attribute aggregated, like the reference (and pt-query-digest). */
function ours(chunks: readonly string[]): DigestResult {
  const result = digestOf(chunks, { attributes: 'all' });
  // The histogram and the execution summary are new (the reference has neither);
  // histogram.test.ts and execution.test.ts check them.
  return {
    ...result,
    classes: result.classes.map(({ queryTimeHistogram: _, execution: __, ...rest }) => rest),
  } as DigestResult;
}

function pick<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([name]) => REPORTED_ATTRIBUTES.includes(name)));
}

/**
 * The default digest (reported attributes only) must equal the full one with its metrics and
 * flags cut to the reported attributes: skipping the others changes nothing else.
 */
function expectReportedSubset(chunks: readonly string[]): void {
  const full = digestOf(chunks, { attributes: 'all' });
  const reported = digestOf(chunks, {});
  expect(reported).toEqual({
    ...full,
    classes: full.classes.map((c) => ({ ...c, metrics: pick(c.metrics), flags: pick(c.flags) })),
  });
}

function reference(chunks: readonly string[]): DigestResult {
  const digest = referenceDigest();
  const parser = referenceParser({ onEvent: digest.add, onSkip: digest.addSkip });
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return digest.result() as unknown as DigestResult;
}

function chunked(text: string, sizes: readonly number[]): string[] {
  const out: string[] = [];
  for (let at = 0, i = 0; at < text.length; i++) {
    const size = sizes.length === 0 ? text.length : sizes[i % sizes.length]!;
    out.push(text.slice(at, at + size));
    at += size;
  }
  return out;
}

// Text that moves the parser and digest between their paths: separators, banners, header
// prefixes, attribute names and odd values, comments and quotes for the fingerprint key.
const TOKENS = [
  ';\n#',
  '\n',
  ';\n',
  ' ',
  '\t',
  '#',
  ':',
  '0',
  '1.5',
  'x',
  "'",
  '"',
  '\\',
  '/*',
  '*/',
  '--',
  '# Time: 071015 21:43:52\n',
  '# User@Host: root[root] @ localhost [127.0.0.1]  Id:  7\n',
  '# Query_time: 2  Lock_time: 0  Rows_sent: 1  Rows_examined: 0\n',
  '# Schema: db1  Last_errno: 0  Killed: 0\n',
  '# Query_time: 0.000012 Rows_sent: abc Filesort: Yes\n',
  'Tcp port: 3306  Unix socket: /tmp/mysql.sock\n',
  'Time                 Id Command    Argument\n',
  '/usr/sbin/mysqld, Version: 8.0.33 (MySQL). started with:\n',
  'use db2;\n',
  'SET timestamp=1195000000;\n',
  'SET insert_id=5,timestamp=7;\n',
  '# administrator command: Quit;\n',
  "SELECT * FROM t WHERE id = 42 AND s = 'a(b)';\n",
  "INSERT INTO t VALUES (1, 'x'), (2, 'values');\n",
];

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), token: fc.constantFrom(...TOKENS) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
);

type Edit =
  | { kind: 'insert'; at: number; token: string }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'duplicate'; at: number };

function mutate(text: string, edits: readonly Edit[]): string {
  let out = text;
  for (const edit of edits) {
    const at = out.length === 0 ? 0 : edit.at % (out.length + 1);
    if (edit.kind === 'insert') out = out.slice(0, at) + edit.token + out.slice(at);
    else if (edit.kind === 'delete') out = out.slice(0, at) + out.slice(at + edit.length);
    else {
      const start = out.lastIndexOf('\n', at - 1) + 1;
      const end = out.indexOf('\n', at);
      const line = out.slice(start, end === -1 ? out.length : end + 1);
      out = out.slice(0, start) + line + out.slice(start);
    }
  }
  return out;
}

describe('optimised slow-log path = reference implementation', () => {
  it.each(logs.map((log) => [log.name, log] as const))('%s', (_, log) => {
    expect(ours([log.text])).toEqual(reference([log.text]));
    expectReportedSubset([log.text]);
  });

  it('mutated corpus logs, in random chunks', () => {
    const small = logs.filter((log) => log.text.length <= 40_000);
    fc.assert(
      fc.property(
        fc.constantFrom(...small),
        fc.array(mutation, { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 500 }), { maxLength: 6 }),
        (log, edits, sizes) => {
          const text = mutate(log.text, edits);
          expect(ours(chunked(text, sizes))).toEqual(reference([text]));
          expectReportedSubset(chunked(text, sizes));
        },
      ),
      { numRuns: 300, seed: 55 },
    );
  });

  it('generated log_slow_extra-style events with varied attribute lines', () => {
    const value = fc.oneof(
      fc.constantFrom('0', '1', '0.000123', '12.5', 'Yes', 'No', '', '1e3', '-4', '007', '1.', 'abc'),
      fc.integer({ min: 0, max: 1e6 }).map(String),
    );
    const names = fc.constantFrom(
      'Query_time',
      'Lock_time',
      'Rows_sent',
      'Rows_examined',
      'Thread_id',
      'Bytes_sent',
      'Tmp_tables',
      'Created_tmp_tables',
      'Read_rnd_next',
      'Filesort',
      'Full_scan',
      'Schema',
      'Start',
      'Killed',
    );
    const separator = fc.constantFrom(' ', '  ', '\t', ' \t ');
    const attributeLine = fc
      .array(fc.tuple(names, separator, value), { minLength: 1, maxLength: 8 })
      .map((pairs) => `# ${pairs.map(([n, s, v]) => `${n}:${s}${v}`).join(' ')}\n`);
    const query = fc.constantFrom(
      'SELECT c FROM sbtest1 WHERE id=5012',
      'SELECT c FROM sbtest1 WHERE id=17 /* c */',
      "UPDATE sbtest2 SET c='a\\'b' WHERE id=9",
      'SELECT "x" FROM t -- tail',
      "INSERT INTO t VALUES (1,'(')",
      'call p(1)',
      'COMMIT',
      'use other',
    );
    const event = fc
      .tuple(
        fc.boolean(),
        fc.array(attributeLine, { minLength: 0, maxLength: 3 }),
        fc.boolean(),
        query,
        fc.integer({ min: 0, max: 99 }),
      )
      .map(
        ([timed, lines, use, sql, n]) =>
          `${timed ? `# Time: 2024-01-0${(n % 9) + 1}T10:00:${String(n % 60).padStart(2, '0')}.000000Z\n` : ''}# User@Host: u${n % 3}[u] @  [10.0.0.${n % 4}]  Id: ${n}\n${lines.join('')}${use ? 'use sbtest;\n' : ''}SET timestamp=${1700000000 + n};\n${sql.replace('5012', String(n))};\n`,
      );
    fc.assert(
      fc.property(
        fc.array(event, { minLength: 1, maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 300 }), { maxLength: 4 }),
        (events, sizes) => {
          const text = events.join('');
          expect(ours(chunked(text, sizes))).toEqual(reference([text]));
          expectReportedSubset(chunked(text, sizes));
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });

  it('fingerprint keys are unchanged', () => {
    const queries = logs.flatMap((log) => log.text.split(';\n'));
    for (const query of queries) expect(fingerprintKey(query)).toBe(referenceKey(query));
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...TOKENS, 'SELECT', ' a', '12', 'in (1, 2)'), { maxLength: 12 }),
        (parts) => {
          const query = parts.join('');
          expect(fingerprintKey(query)).toBe(referenceKey(query));
        },
      ),
      { numRuns: 500, seed: 3 },
    );
  });
});
