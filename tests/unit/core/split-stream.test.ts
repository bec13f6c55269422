import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitStatements } from '../../../src/core/sql/split.js';
import { StatementStream, streamStatements } from '../../../src/core/sql/split-stream.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures');

function sqlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sqlFiles(file);
    return name.endsWith('.sql') ? [file] : [];
  });
}

/** Real scripts: the committed mysqldump / mariadb-dump output, the schema sources, the known-misses corpus. */
const scripts: [string, string][] = [
  ...[...sqlFiles(path.join(fixtures, 'schemas')), path.join(fixtures, 'corpus/known-misses.sql')].map(
    (file) => [path.relative(fixtures, file), readFileSync(file, 'utf8')] as [string, string],
  ),
  [
    'corpus/mariadb-kb.json',
    (
      JSON.parse(readFileSync(path.join(fixtures, 'corpus/mariadb-kb.json'), 'utf8')) as {
        groups: { statements: string[] }[];
      }
    ).groups
      .flatMap((group) => group.statements)
      .join(';\n'),
  ],
];

function chunked(text: string, cuts: number[]) {
  const stream = new StatementStream();
  const out = [];
  let previous = 0;
  for (const cut of [...new Set(cuts.map((c) => Math.floor(c * text.length)))].sort((a, b) => a - b)) {
    out.push(...stream.push(text.slice(previous, cut)));
    previous = cut;
  }
  out.push(...stream.push(text.slice(previous)));
  out.push(...stream.end());
  return out;
}

/** Pieces that exercise every state and every place a decision needs the next character. */
const token = fc.constantFrom(
  "'",
  '"',
  '`',
  '\\',
  "''",
  '-',
  '--',
  '-- ',
  '--\n',
  '#',
  '/',
  '*',
  '/*',
  '*/',
  '/*!',
  '/*+',
  ';',
  ';;',
  '//',
  '$$',
  '\n',
  '\r\n',
  ' ',
  '\t',
  '\u00a0',
  'é',
  '😀',
  'DELIMITER //\n',
  'DELIMITER ;;\n',
  'delimiter $$ \n',
  'DELIMITER ;\n',
  'DELIMITER',
  'delimiter ',
  'd',
  'SELECT 1',
  'x',
);

describe('StatementStream', () => {
  it.each(scripts)('gives what splitStatements gives for %s on random chunkings', (_name, text) => {
    const whole = splitStatements(text);
    expect(whole.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 60 }), (cuts) => {
        expect(chunked(text, cuts)).toEqual(whole);
      }),
      { numRuns: 15 },
    );
  });

  it('gives what splitStatements gives for generated adversarial scripts, even one character per chunk', () => {
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 60 }).map((parts) => parts.join('')),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
        (text, cuts) => {
          const whole = splitStatements(text);
          expect(chunked(text, cuts)).toEqual(whole);
          expect(
            chunked(
              text,
              Array.from({ length: text.length }, (_, i) => i / text.length),
            ),
          ).toEqual(whole);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('keeps only the statement being read: the buffer does not grow with the script', async () => {
    const stream = new StatementStream();
    let count = 0;
    for (let i = 0; i < 20_000; i++) count += stream.push(`SELECT ${i} FROM t WHERE a = 'x;y';\n`).length;
    count += stream.end().length;
    expect(count).toBe(20_000);
    expect((stream as unknown as { buffer: string }).buffer.length).toBeLessThan(100);
    async function* chunks() {
      yield 'SELECT 1; SEL';
      yield 'ECT 2';
    }
    const slices = [];
    for await (const slice of streamStatements(chunks())) slices.push(slice.sql);
    expect(slices).toEqual(['SELECT 1', 'SELECT 2']);
  });
});
