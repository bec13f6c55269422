// Conformance: our parser + digest against pt-query-digest 3.2.1's JSON for every corpus sample.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  binaryToDisplay,
  createDigest,
  createSlowLogParser,
  type DigestResult,
} from '../../../src/core/slowlog/index.js';

const corpus = fileURLToPath(new URL('../../fixtures/slowlogs/', import.meta.url));

interface ExpectedMetric {
  sum?: string;
  min?: string;
  max?: string;
  median?: string;
  pct_95?: string;
}
interface ExpectedJson {
  global: {
    query_count: number;
    unique_query_count: number;
    metrics: { Query_time?: ExpectedMetric };
  };
  classes: {
    checksum: string;
    fingerprint: string;
    query_count: number;
    metrics: { Query_time?: ExpectedMetric };
    example?: { Query_time?: string; ts?: string | null };
    ts_min?: string;
    ts_max?: string;
  }[];
}

/**
 * Samples where we deliberately differ from pt-query-digest, with the reason. Each entry
 * replaces the expected value it names; keep docs/slowlog.md in sync.
 */
const exceptions: Record<string, { reason: string }> = {};

/** Digests a whole file, fed in chunks of the given sizes (cycled). */
export function digestFile(path: string, chunkSizes: readonly number[] = []): DigestResult {
  const text = readFileSync(path).toString('latin1');
  const digest = createDigest();
  const parser = createSlowLogParser({ onEvent: digest.add, onSkip: digest.addSkip });
  if (chunkSizes.length === 0) parser.push(text);
  else {
    let i = 0;
    for (let at = 0; at < text.length; i++) {
      const size = chunkSizes[i % chunkSizes.length]!;
      parser.push(text.slice(at, at + size));
      at += size;
    }
  }
  parser.end();
  return digest.result();
}

const f6 = (n: number | undefined): string | undefined => (n === undefined ? undefined : n.toFixed(6));

function ours(result: DigestResult) {
  return {
    query_count: result.global.queryCount,
    unique_query_count: result.global.uniqueQueryCount,
    Query_time: {
      sum: f6(result.global.queryTime?.sum),
      min: f6(result.global.queryTime?.min),
      max: f6(result.global.queryTime?.max),
    },
    classes: Object.fromEntries(
      result.classes
        .filter((c) => c.ranked)
        .map((c) => [
          c.checksum,
          {
            fingerprint: c.fingerprint,
            query_count: c.queryCount,
            Query_time: {
              sum: f6(c.queryTime?.sum),
              min: f6(c.queryTime?.min),
              max: f6(c.queryTime?.max),
              median: f6(c.queryTime?.median),
              pct_95: f6(c.queryTime?.p95),
            },
            example_Query_time: c.example.queryTime,
            ts_min: c.firstSeen,
            ts_max: c.lastSeen,
          },
        ]),
    ),
  };
}

function theirs(expected: ExpectedJson) {
  const q = expected.global.metrics.Query_time;
  return {
    query_count: expected.global.query_count,
    unique_query_count: expected.global.unique_query_count,
    Query_time: { sum: q?.sum, min: q?.min, max: q?.max },
    classes: Object.fromEntries(
      expected.classes.map((c) => [
        c.checksum,
        {
          fingerprint: binaryToDisplay(c.fingerprint),
          query_count: c.query_count,
          Query_time: {
            sum: c.metrics.Query_time?.sum,
            min: c.metrics.Query_time?.min,
            max: c.metrics.Query_time?.max,
            median: c.metrics.Query_time?.median,
            pct_95: c.metrics.Query_time?.pct_95,
          },
          example_Query_time: c.example?.Query_time,
          ts_min: c.ts_min,
          ts_max: c.ts_max,
        },
      ]),
    ),
  };
}

const samples = readdirSync(`${corpus}percona-expected`)
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.slice(0, -'.json'.length))
  .sort();

describe('pt-query-digest 3.2.1 conformance', () => {
  it('covers the 75 samples that have expected JSON', () => {
    expect(samples).toHaveLength(75);
  });
  it.each(samples)('%s', (sample) => {
    const expected = JSON.parse(
      readFileSync(`${corpus}percona-expected/${sample}.json`, 'utf8'),
    ) as ExpectedJson;
    const result = digestFile(`${corpus}percona/${sample}`);
    if (exceptions[sample]) return;
    expect(ours(result)).toEqual(theirs(expected));
  });
});
