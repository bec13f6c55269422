// Conformance: our parser + digest against pt-query-digest 3.2.1's JSON for every corpus sample.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { digestFile, ours, theirs, type ExpectedJson } from './pt-json.js';

const corpus = fileURLToPath(new URL('../../fixtures/slowlogs/', import.meta.url));

/**
 * Samples where we deliberately differ from pt-query-digest, with the reason. Each entry
 * replaces the expected value it names; keep docs/slowlog.md in sync.
 */
const exceptions: Record<string, { reason: string }> = {};

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
