// Parallel digests: a log cut at a record boundary, digested in two parts and merged, gives the whole-log result.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createDigest, createSlowLogParser, type DigestResult } from '../../../src/core/slowlog/index.js';

const dirs = ['../../fixtures/slowlogs/percona/', '../../fixtures/slowlogs/generated/'].map((d) =>
  fileURLToPath(new URL(d, import.meta.url)),
);
const samples = dirs.flatMap((dir) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.txt') || name.endsWith('.log'))
    .sort()
    .map((name) => ({ name, path: dir + name })),
);

function whole(text: string): DigestResult {
  const digest = createDigest();
  const parser = createSlowLogParser({ onEvent: digest.add, onSkip: digest.addSkip });
  parser.push(text);
  parser.end();
  return digest.result();
}

/** Digests text[0, cut) and text[cut, end) separately and merges; undefined if not at a boundary. */
function split(text: string, cut: number): DigestResult | 'refused' | undefined {
  const first = createDigest();
  const head = createSlowLogParser({ onEvent: first.add, onSkip: first.addSkip });
  head.push(text.slice(0, cut));
  if (!head.atRecordBoundary || head.consumed !== cut) return undefined;
  const second = createDigest({ segment: true });
  const tail = createSlowLogParser({ onEvent: second.add, onSkip: second.addSkip });
  tail.push(text.slice(cut));
  tail.end();
  if (!first.absorb(second.segment(), { offset: cut, line: head.line })) return 'refused';
  return first.result();
}

describe('digest segments merge exactly', () => {
  let tested = 0;
  it.each(samples)(
    '$name cut at record boundaries',
    ({ path }) => {
      const text = readFileSync(path).toString('latin1');
      const expected = whole(text);
      const cuts: number[] = [];
      for (let at = text.indexOf(';\n#'); at !== -1; at = text.indexOf(';\n#', at + 1)) cuts.push(at + 3);
      // Up to 60 boundaries per file, 12 in the big ones (each cut digests the whole file).
      const step = Math.max(1, Math.ceil(cuts.length / (text.length > 100_000 ? 12 : 60)));
      for (let k = 0; k < cuts.length; k += step) {
        const merged = split(text, cuts[k]!);
        if (merged === undefined || merged === 'refused') continue;
        expect(merged).toEqual(expected);
        tested++;
      }
    },
    60_000,
  );
  it('tested many cuts', () => {
    expect(tested).toBeGreaterThan(200);
  });
});
