// Shared by the conformance and generated-log tests: our digest vs pt-query-digest 3.2.1's JSON.
import { readFileSync } from 'node:fs';
import {
  binaryToDisplay,
  createDigest,
  createSlowLogParser,
  type DigestResult,
} from '../../../src/core/slowlog/index.js';

export interface ExpectedMetric {
  sum?: string;
  min?: string;
  max?: string;
  median?: string;
  pct_95?: string;
}
export interface ExpectedJson {
  global: {
    query_count: number;
    unique_query_count: number;
    metrics: { Query_time?: ExpectedMetric };
  };
  classes: {
    checksum: string;
    fingerprint: string;
    query_count: number;
    metrics: { Query_time?: ExpectedMetric; db?: { value?: string } };
    example?: { Query_time?: string; ts?: string | null };
    ts_min?: string;
    ts_max?: string;
  }[];
}

/** Digests a whole file, fed in chunks of the given sizes (cycled). */
export function digestFile(path: string, chunkSizes: readonly number[] = []): DigestResult {
  const text = readFileSync(path).toString('latin1');
  const digest = createDigest({ ptCompatible: true });
  const parser = createSlowLogParser({ onEvent: digest.add, onSkip: digest.addSkip, ptCompatible: true });
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

/** The fields pt-query-digest prints, from our result. */
export function ours(result: DigestResult) {
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

/** The same fields from pt-query-digest's JSON. */
export function theirs(expected: ExpectedJson) {
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
