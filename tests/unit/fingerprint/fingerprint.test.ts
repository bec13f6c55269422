// Golden vectors: pt-query-digest 3.2.1 fingerprints and checksums.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checksum, fingerprint } from '../../../src/core/fingerprint/index.js';

interface Vector {
  query: string;
  fingerprint: string;
  checksum: string;
}

const vectorsFile = fileURLToPath(
  new URL('../../fixtures/slowlogs/fingerprint-vectors.jsonl', import.meta.url),
);
// The vectors hold a Latin-1 view of the bytes (code point = byte), which is exactly our
// "binary string" input convention.
const vectors: Vector[] = readFileSync(vectorsFile, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Vector);

describe('fingerprint (pt-query-digest 3.2.1 vectors)', () => {
  it('has all 51 vectors', () => {
    expect(vectors).toHaveLength(51);
  });
  it.each(vectors.map((v, i) => [i, v] as const))('vector %i', (_i, vector) => {
    const fp = fingerprint(vector.query);
    expect({ fingerprint: fp, checksum: checksum(fp) }).toEqual({
      fingerprint: vector.fingerprint,
      checksum: vector.checksum,
    });
  });
  it('checksums the empty fingerprint and a known one', () => {
    expect([checksum(''), checksum('select sleep(?) from n')]).toEqual([
      'D41D8CD98F00B204E9800998ECF8427E',
      'AE9D6BB6AF470B997F7D57ACDD8A346E',
    ]);
  });
});
