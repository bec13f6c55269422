// The common-record shortcut (record.ts, commonRecord) reads exactly what the general loop reads.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSlowLogParser, type SlowLogEvent } from '../../../src/core/slowlog/index.js';
import type { ParsedSlowLogEvent } from '../../../src/core/slowlog/event.js';

const fixtures = fileURLToPath(new URL('../../fixtures/slowlogs/', import.meta.url));
const logs = [
  ...readdirSync(`${fixtures}percona`)
    .filter((name) => name !== 'README.md')
    .map((name) => `percona/${name}`),
  'generated/mysql-workload.log',
  'generated/mariadb-workload.log',
].sort();
const texts = new Map(logs.map((name) => [name, readFileSync(fixtures + name).toString('latin1')]));

/** Every event and skip, with the header operations, as comparable lines. */
function read(text: string, commonRecords: boolean, chunk = text.length): string[] {
  const out: string[] = [];
  const show = (event: SlowLogEvent): string => {
    const ops = (event as ParsedSlowLogEvent).ops.map((op) => (typeof op === 'symbol' ? '<line>' : op));
    return JSON.stringify([event.offset, event.line, event.query, event.admin, ops]);
  };
  const parser = createSlowLogParser({
    commonRecords,
    onEvent: (event) => out.push(show(event)),
    onSkip: (skip) => out.push(`skip ${JSON.stringify(skip)}`),
  });
  for (let at = 0; at < text.length; at += Math.max(1, chunk)) parser.push(text.slice(at, at + chunk));
  parser.end();
  return out;
}

const record = (
  query: string,
  head = '',
  attributes = '# Query_time: 0.5  Lock_time: 0.1 Rows_sent: 1  Rows_examined: 2\n',
): string =>
  `# Time: 2026-11-27T11:26:33.349073Z\n# User@Host: app[app] @  [10.0.0.1]  Id:    12\n${attributes}${head}SET timestamp=1795778793;\n${query};\n`;

/** Texts the general loop treats specially, each inside a run of common records. */
const tricky: Record<string, string> = {
  plain: record('SELECT c FROM t WHERE id=5'),
  'use line': record('SELECT 1', 'use shop;\n'),
  'use line with backticks': record('SELECT 1', 'use `shop`;\n'),
  'empty Schema': record(
    'SELECT 1',
    '',
    '# Thread_id: 8  Schema:   QC_hit: No\n# Query_time: 1  Lock_time: 0  Rows_sent: 0  Rows_examined: 0\n',
  ),
  'MariaDB lines': record(
    'SELECT 1',
    '',
    '# Thread_id: 8  Schema: db  QC_hit: No\n# Query_time: 1  Lock_time: 0  Rows_sent: 0  Rows_examined: 0\n# Rows_affected: 0  Bytes_sent: 56\n',
  ),
  'lower-case header line': record(
    'SELECT 1',
    '',
    '# Query_time: 1  Lock_time: 0\n# explain: id select_type table\n',
  ),
  'banner in the query': record('SELECT 2\nTcp port: 3306  Unix socket: /run/mysqld/mysqld.sock\nSELECT 3'),
  'mysqld banner in the query': record(
    'SELECT 2\n/usr/sbin/mysqld, Version: 8.0.33 (MySQL). started with:\nSELECT 3',
  ),
  'column header in the query': record('SELECT 2\nTime                 Id Command    Argument\nSELECT 3'),
  'query 0': record('0'),
  "MySQL's throttle summary": record("throttle:          3 'index not used' warning(s) suppressed."),
  'query starting with #': record('# administrator command: Quit'),
  'quote left open': record("SELECT 'a;\n# Query_time: 9"),
  'query ending in a comment': record('SELECT 1 /* x'),
  'time line with User@Host': `# Time: 261127 11:26:33 # User@Host: a[a] @ h [1.2.3.4]\n# Query_time: 1  Lock_time: 0\nSET timestamp=1;\nSELECT 1;\n`,
  'no time line': `# User@Host: a[a] @ h [1.2.3.4]\n# Query_time: 1  Lock_time: 0\nSET timestamp=1;\nSELECT 1;\n`,
  'no attribute line': `# Time: 261127 11:26:33\n# User@Host: a[a] @ h [1.2.3.4]\nSET timestamp=1;\nSELECT 1;\n`,
  'SET line with more': record('SELECT 1', 'SET timestamp=5, insert_id=3;\n'),
  'user SET timestamp as the query': record('SET timestamp=7'),
  'attribute value missing': record('SELECT 1', '', '# Query_time: \n'),
  'CRLF line ends': record('SELECT 1').replaceAll('\n', '\r\n'),
};

describe('the common-record shortcut reads what the general loop reads', () => {
  it.each(logs)('%s', (name) => {
    const text = texts.get(name)!;
    for (const chunk of [text.length, 4096, 97])
      expect(read(text, true, chunk)).toEqual(read(text, false, chunk));
  });

  it.each(Object.keys(tricky))('%s', (name) => {
    const text = record('SELECT 0') + tricky[name] + record('SELECT 9');
    expect(read(text, true)).toEqual(read(text, false));
  });

  it('on logs changed at random (records of the fixtures, special texts inserted)', () => {
    const sources = [...texts.values(), ...Object.values(tricky).map((t) => record('SELECT 0') + t)];
    const inserts = [
      ';',
      '\n',
      '#',
      "'",
      '"',
      '`',
      '\\',
      '/*',
      '--',
      ';\n#',
      '\n# ',
      'use x;\n',
      'SET timestamp=1;\n',
      '# Time: 261127 11:26:33\n',
      '# User@Host: a[a] @ h [1.2.3.4]\n',
      'Schema:   QC_hit: ',
      '\n/usr/sbin/mariadbd, Version: 10.11.6-MariaDB-log (Debian). started with:\n',
      '\nTcp port: 0  Unix socket: x\n',
      '\nTime  Id Command\n',
      '\r\n',
      'd,',
      'T',
      '# administrator command: Quit;\n',
      '# Query_time: 1  Lock_time: 0\n',
    ];
    const edit = fc.record({
      at: fc.nat(),
      lineStart: fc.boolean(),
      insert: fc.constantFrom(...inserts),
      cut: fc.nat(4),
    });
    fc.assert(
      fc.property(
        fc.nat(sources.length - 1),
        fc.nat(),
        fc.integer({ min: 200, max: 6000 }),
        fc.array(edit, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 3000 }),
        (source, from, length, edits, chunk) => {
          const whole = sources[source]!;
          const start = whole.length > length ? from % (whole.length - length) : 0;
          let text = whole.slice(start, start + length);
          for (const { at, lineStart, insert, cut } of edits) {
            let pos = at % (text.length + 1);
            const nl = lineStart ? text.indexOf('\n', pos) : -1;
            if (nl !== -1) pos = nl + 1;
            text = text.slice(0, pos) + insert + text.slice(pos + cut);
          }
          expect(read(text, true, chunk)).toEqual(read(text, false, chunk));
        },
      ),
      { numRuns: 1500, seed: 21 },
    );
  });
});
