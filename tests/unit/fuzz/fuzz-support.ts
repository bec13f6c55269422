// Shared fuzz helpers: fixture corpora, string mutations (fast-check), and per-input timing.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { parse } from 'yaml';

const fixtures = new URL('../../fixtures/', import.meta.url).pathname;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

/** Every `sql:` of the rule fixtures (pass and fail cases). */
export function ruleSqlCorpus(): string[] {
  const out: string[] = [];
  for (const file of walk(path.join(fixtures, 'rules')).filter((name) => name.endsWith('.yml'))) {
    const doc = parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    for (const value of Object.values(doc)) {
      if (value && typeof value === 'object' && typeof (value as { sql?: unknown }).sql === 'string') {
        out.push((value as { sql: string }).sql);
      }
    }
  }
  return out;
}

/** The percona slow logs, as binary strings (latin1), like the file reader feeds them. */
export function slowLogCorpus(): string[] {
  return walk(path.join(fixtures, 'slowlogs', 'percona'))
    .filter((name) => !name.endsWith('.md') && !name.endsWith('.json'))
    .map((file) => readFileSync(file, 'latin1'));
}

/** Pasted EXPLAIN captures (tables, \G, JSON, TREE), not the expected outputs. */
export function explainCorpus(): string[] {
  return walk(path.join(fixtures, 'explain'))
    .filter((name) => !name.endsWith('.expected.json') && !name.endsWith('.md'))
    .map((file) => readFileSync(file, 'utf8'));
}

const SQL_TOKENS = [
  'SELECT',
  'FROM',
  'WHERE',
  'AND',
  'OR',
  'NOT',
  'IN',
  'LIKE',
  'BETWEEN',
  'IS',
  'NULL',
  'JOIN',
  'LEFT',
  'ON',
  'USING',
  'GROUP',
  'BY',
  'ORDER',
  'HAVING',
  'LIMIT',
  'OFFSET',
  'UNION',
  'ALL',
  'WITH',
  'AS',
  'UPDATE',
  'SET',
  'DELETE',
  'INSERT',
  'INTO',
  'VALUES',
  'REPLACE',
  'FOR',
  'SHARE',
  'NOWAIT',
  'SKIP',
  'LOCKED',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
  'CAST',
  'CONVERT',
  'DATE',
  'YEAR',
  'MONTH',
  'LOWER',
  'UPPER',
  'SUBSTRING',
  'COALESCE',
  'IFNULL',
  'JSON_EXTRACT',
  '->',
  '->>',
  'COLLATE',
  'utf8mb4_bin',
  'INTERVAL',
  'DAY',
  'NOW()',
  'CURDATE()',
  't',
  'u',
  'products',
  'orders',
  'id',
  'price',
  'name',
  'create_time',
  'doc',
  '`weird name`',
  '"dq"',
  "'str'",
  "'%x'",
  "'x%'",
  "''",
  '0',
  '1',
  '-1',
  '1e308',
  '0x1F',
  "b'01'",
  "_utf8mb4'x'",
  '?',
  '@v',
  '@@sql_mode',
  '(',
  ')',
  ',',
  ';',
  '.',
  '*',
  '+',
  '-',
  '/',
  '%',
  '=',
  '<',
  '>',
  '<=',
  '>=',
  '<>',
  '!=',
  '<=>',
  '||',
  '&&',
  '|',
  '&',
  '^',
  '~',
  '!',
  ':=',
  '/*',
  '*/',
  '/*!80000',
  '--',
  '#',
  '\n',
  '\\',
  '`',
  "'",
  '"',
  '\u00e9',
  '\u{1F600}',
  '\0',
];

/** Random token soup: keywords, identifiers, literals, operators and unbalanced quotes/comments. */
export const tokenSoup = fc
  .array(fc.constantFrom(...SQL_TOKENS), { maxLength: 40 })
  .chain((tokens) => fc.constantFrom(' ', '', '\n').map((separator) => tokens.join(separator)));

type Mutation = (text: string) => string;

/** One random edit of a string: delete, duplicate, insert, swap, truncate, case flip. */
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.nat(), fc.nat({ max: 40 })).map(([at, length]): Mutation => (text) => {
    const start = text.length ? at % text.length : 0;
    return text.slice(0, start) + text.slice(start + length);
  }),
  fc.tuple(fc.nat(), fc.nat({ max: 200 })).map(([at, length]): Mutation => (text) => {
    const start = text.length ? at % text.length : 0;
    return text.slice(0, start + length) + text.slice(start);
  }),
  fc
    .tuple(fc.nat(), fc.oneof(fc.constantFrom(...SQL_TOKENS), fc.string({ maxLength: 8 })))
    .map(([at, insert]): Mutation => (text) => {
      const start = text.length ? at % (text.length + 1) : 0;
      return text.slice(0, start) + insert + text.slice(start);
    }),
  fc.tuple(fc.nat(), fc.nat()).map(([a, b]): Mutation => (text) => {
    if (text.length < 2) return text;
    const i = a % text.length;
    const j = b % text.length;
    const chars = [...text];
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
    return chars.join('');
  }),
  fc.nat().map(
    (at): Mutation =>
      (text) =>
        text.slice(0, text.length ? at % text.length : 0),
  ),
  fc.constant<Mutation>((text) => text.toUpperCase()),
  fc.constant<Mutation>((text) => text.repeat(2)),
);

/** A corpus entry (optionally a window of it) with up to `maxMutations` random edits. */
export function mutated(corpus: readonly string[], options: { window?: number; maxMutations?: number } = {}) {
  return fc
    .tuple(fc.constantFrom(...corpus), fc.nat(), fc.array(mutation, { maxLength: options.maxMutations ?? 4 }))
    .map(([text, offset, edits]) => {
      let value = text;
      if (options.window && value.length > options.window) {
        const start = offset % (value.length - options.window);
        value = value.slice(start, start + options.window);
      }
      return edits.reduce((current, edit) => edit(current), value);
    });
}

/** Tracks the slowest input of a run; `check` fails the property when one input exceeds the limit. */
export class SlowestInput {
  ms = 0;
  input = '';
  count = 0;
  constructor(readonly limitMs: number) {}
  time<T>(input: string, run: () => T): T {
    const started = performance.now();
    const result = run();
    const elapsed = performance.now() - started;
    this.count += 1;
    if (elapsed > this.ms) {
      this.ms = elapsed;
      this.input = input;
    }
    if (elapsed > this.limitMs) {
      throw new Error(
        `input took ${elapsed.toFixed(0)} ms (limit ${this.limitMs} ms): ${JSON.stringify(input.slice(0, 300))}`,
      );
    }
    return result;
  }
  report(label: string): string {
    return `${label}: ${this.count} inputs, slowest ${this.ms.toFixed(1)} ms: ${JSON.stringify(this.input.slice(0, 120))}`;
  }
}
