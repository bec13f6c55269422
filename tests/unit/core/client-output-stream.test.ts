// Pasted client output unwrapped as a stream (core/schema/client-output.ts, issue 19): every committed
// SHOW CREATE form (`\G`, table framing, batch) and every other fixture, with LF and CRLF line ends,
// cut into pieces of many sizes, unwraps to exactly what the whole text does, so a paste of any size
// loads with memory bounded by its longest line.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ClientOutputUnwrapper,
  FRAMING_SAMPLE,
  hasClientFraming,
  unwrapClientOutput,
} from '../../../src/core/schema/client-output.js';

const dumps = path.resolve('tests/fixtures/schemas/dumps');
const fixtures = (['mysql', 'mariadb'] as const).flatMap((flavor) =>
  readdirSync(path.join(dumps, flavor))
    .filter((name) => /\.(sql|txt)$/.test(name))
    .map((name) => ({ flavor, name, text: readFileSync(path.join(dumps, flavor, name), 'utf8') })),
);

function unwrapInPieces(text: string, size: number): string {
  const unwrapper = new ClientOutputUnwrapper(text.slice(0, FRAMING_SAMPLE));
  let out = '';
  for (let start = 0; start < text.length; start += size)
    out += unwrapper.push(text.slice(start, start + size));
  return out + unwrapper.end();
}

describe('client output unwrapped as a stream', () => {
  const framed = fixtures.filter(({ text }) => hasClientFraming(text));

  it('the committed fixtures include the \\G and the table form of both servers', () => {
    expect(framed.map(({ flavor, name }) => `${flavor}/${name}`).sort()).toEqual(
      expect.arrayContaining([
        'mariadb/shop-show-create-table.txt',
        'mariadb/shop-show-create-vertical.txt',
        'mysql/sakila-show-create-table.txt',
        'mysql/sakila-show-create-vertical.txt',
      ]),
    );
  });

  it.each(framed)('$flavor/$name: in pieces of 1, 7, 100 and 4096 characters, LF and CRLF', ({ text }) => {
    for (const lines of [text, text.replace(/\n/g, '\r\n')]) {
      const whole = unwrapClientOutput(lines);
      expect(whole).not.toBe(lines);
      // Line numbers are kept: skipped statements point at the pasted text.
      expect(whole.split('\n').length).toBe(lines.split('\n').length + 1);
      for (const size of [1, 7, 100, 4096]) expect(unwrapInPieces(lines, size)).toBe(whole);
    }
  });

  it('batch output (tab-separated, \\n escapes) and text without framing', () => {
    const batch = 'Table\tCreate Table\nt\tCREATE TABLE `t` (\\n  `id` int NOT NULL\\n)\n';
    expect(unwrapInPieces(batch, 3)).toBe(unwrapClientOutput(batch));
    expect(unwrapClientOutput(batch)).toContain('CREATE TABLE `t` (\n  `id` int NOT NULL\n);');
    const plain = 'CREATE TABLE t (id INT);\n';
    expect(unwrapClientOutput(plain)).toBe(plain);
  });
});
