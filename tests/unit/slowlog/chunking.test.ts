// Streaming: any chunking of the input gives exactly the same digest as one push.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDigest, createSlowLogParser, type DigestResult } from '../../../src/core/slowlog/index.js';

const dir = fileURLToPath(new URL('../../fixtures/slowlogs/percona/', import.meta.url));
const samples = readdirSync(dir)
  .filter((name) => name !== 'README.md')
  .sort();

function digestChunks(text: string, sizes: readonly number[]): DigestResult {
  const digest = createDigest();
  const parser = createSlowLogParser({ onEvent: digest.add, onSkip: digest.addSkip });
  let at = 0;
  for (let i = 0; at < text.length; i++) {
    const size = sizes.length === 0 ? text.length : sizes[i % sizes.length]!;
    parser.push(text.slice(at, at + size));
    at += size;
  }
  parser.end();
  expect(parser.consumed).toBe(text.length);
  return digest.result();
}

describe('chunking does not change the result', () => {
  it.each(samples)('%s in random chunks', (sample) => {
    const text = readFileSync(dir + sample).toString('latin1');
    const whole = digestChunks(text, []);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 20 }), (sizes) => {
        expect(digestChunks(text, sizes)).toEqual(whole);
      }),
      { numRuns: 15, seed: 5 },
    );
  });
  it.each(samples.filter((s) => readFileSync(dir + s).length <= 20_000))('%s in 1-byte chunks', (sample) => {
    const text = readFileSync(dir + sample).toString('latin1');
    expect(digestChunks(text, [1])).toEqual(digestChunks(text, []));
  });
});
