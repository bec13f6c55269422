// Attribute lines read through learnt templates (exact separators first, then `\s+`) give the
// digest what Perl's `m/(\w+):\s+(\S+|\Z)/g` gives, whatever the spacing of each line.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDigest, createSlowLogParser, type SlowLogEvent } from '../../../src/core/slowlog/index.js';

const NAMES = [
  'Query_time',
  'Lock_time',
  'Rows_sent',
  'Rows_examined',
  'Thread_id',
  'Read_rnd_next',
  'Killed',
  'Errno',
  'Tmp_tables',
  'Full_scan',
];
const gap = fc.constantFrom(' ', '  ', '\t', ' \t ', '   ');
const value = fc.oneof(
  fc.integer({ min: 0, max: 5000 }).map(String),
  fc.tuple(fc.nat(99), fc.nat(999_999)).map(([a, b]) => `${a}.${String(b).padStart(6, '0')}`),
  fc.constantFrom('Yes', 'No', '1e3', '-4', '12abc', 'x', '0'),
);
/** One attribute line: a shape (names in order) with its own separators and values. */
const line = fc
  .tuple(
    fc.subarray(NAMES, { minLength: 1 }),
    fc.array(fc.tuple(gap, gap, value), { minLength: NAMES.length, maxLength: NAMES.length }),
    gap,
  )
  .map(
    ([names, parts, lead]) =>
      `#${lead}${names.map((name, k) => `${k === 0 ? '' : parts[k]![0]}${name}:${parts[k]![1]}${parts[k]![2]}`).join('')}`,
  );

function digestBoth(log: string): [unknown, unknown] {
  const viaLines = createDigest();
  const viaProperties = createDigest();
  const parser = createSlowLogParser({
    onEvent: (event) => {
      viaLines.add(event);
      // A plain object: the digest reads its `properties` (the parser's Perl-like pairs) instead.
      const plain: SlowLogEvent = {
        offset: event.offset,
        line: event.line,
        query: event.query,
        admin: event.admin,
        properties: event.properties,
      };
      viaProperties.add(plain);
    },
  });
  parser.push(log);
  parser.end();
  return [viaLines.result(), viaProperties.result()];
}

describe('attribute line templates', () => {
  it('read every line as the per-pair reading does, for lines of one shape with changing spaces', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(line, { minLength: 1, maxLength: 3 }), fc.nat(3)), {
          minLength: 1,
          maxLength: 40,
        }),
        (events) => {
          const log = events
            .map(
              ([lines, q]) =>
                `# Time: 261127 11:26:3${q}\n# User@Host: a[a] @ h [1.2.3.4]\n${lines.join('\n')}\nSET timestamp=1;\nSELECT ${q} FROM t${q};\n`,
            )
            .join('');
          const [viaLines, viaProperties] = digestBoth(log);
          expect(viaLines).toEqual(viaProperties);
        },
      ),
      { numRuns: 400, seed: 8 },
    );
  });

  it('a line with a different spacing than the learnt one still reads all its values', () => {
    const event = (spacing: string, time: string) =>
      `# User@Host: a[a] @ h [1.2.3.4]\n# Query_time: ${time}${spacing}Lock_time: 0 Rows_sent: 1${spacing}Rows_examined: 9\nSET timestamp=1;\nSELECT 1;\n`;
    const [viaLines, viaProperties] = digestBoth(event('  ', '1') + event(' \t', '3') + event('  ', '2'));
    expect(viaLines).toEqual(viaProperties);
    const queryTime = (viaLines as { classes: { queryTime: { sum: number; max: number } }[] }).classes[0]!
      .queryTime;
    expect([queryTime.sum, queryTime.max]).toEqual([6, 3]);
  });
});
