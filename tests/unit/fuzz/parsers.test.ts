// Fuzz: mutated slow-log chunks through the streaming parser, pasted EXPLAIN mutations through parsePlan.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePlan } from '../../../src/core/explain/index.js';
import { createSlowLogParser } from '../../../src/core/slowlog/index.js';
import { explainCorpus, mutated, slowLogCorpus, SlowestInput } from './fuzz-support.js';

const SLOWLOG_RUNS = Number(process.env.SARGABLE_FUZZ_SLOWLOG_RUNS ?? 40_000);
const EXPLAIN_RUNS = Number(process.env.SARGABLE_FUZZ_EXPLAIN_RUNS ?? 20_000);
const LIMIT_MS = 2_000;

function parseInChunks(text: string, cuts: number[]): { events: number; skips: number } {
  let events = 0;
  let skips = 0;
  const parser = createSlowLogParser({ onEvent: () => (events += 1), onSkip: () => (skips += 1) });
  let from = 0;
  for (const cut of [...cuts.map((at) => (text.length ? at % text.length : 0))].sort((a, b) => a - b)) {
    parser.push(text.slice(from, Math.max(from, cut)));
    from = Math.max(from, cut);
  }
  parser.push(text.slice(from));
  parser.end();
  return { events, skips };
}

describe('fuzz: parsers', () => {
  it(`the slow-log parser takes ${SLOWLOG_RUNS} mutated chunks, the same events however they are cut`, () => {
    const slowest = new SlowestInput(LIMIT_MS);
    const binary = fc.oneof(
      mutated(slowLogCorpus(), { window: 4096 }),
      fc.string({ maxLength: 300, unit: 'binary-ascii' }),
    );
    fc.assert(
      fc.property(binary, fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
        const whole = slowest.time(text, () => parseInChunks(text, []));
        const chunked = slowest.time(text, () => parseInChunks(text, cuts));
        expect(chunked).toEqual(whole);
      }),
      { numRuns: SLOWLOG_RUNS },
    );
    console.info(slowest.report('slow-log parser'));
  }, 170_000);

  it(`parsePlan answers ok or a clean error for ${EXPLAIN_RUNS} mutated EXPLAIN pastes`, () => {
    const slowest = new SlowestInput(LIMIT_MS);
    fc.assert(
      fc.property(
        mutated(explainCorpus()),
        fc.constantFrom(undefined, 'mysql', 'mariadb'),
        (text, flavor) => {
          const result = slowest.time(text, () => parsePlan(text, flavor ? { flavor } : {}));
          if (!result.ok) expect(typeof result.error.message).toBe('string');
        },
      ),
      { numRuns: EXPLAIN_RUNS },
    );
    console.info(slowest.report('parsePlan'));
  }, 170_000);
});
