// Reading a file in chunks (each cut after its last record separator, the rest carried over) gives the in-memory result.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createDigest, createSlowLogParser, type DigestResult } from '../../../src/core/slowlog/index.js';
import { digestFilesInThread } from '../../../src/main/services/slowlog-file.js';

const fixtures = fileURLToPath(new URL('../../fixtures/slowlogs/', import.meta.url));
const files = ['percona', 'generated'].flatMap((dir) =>
  readdirSync(fixtures + dir)
    .filter((name) => name.endsWith('.txt') || name.endsWith('.log'))
    .sort()
    .map((name) => `${fixtures}${dir}/${name}`),
);

function inMemory(file: string): DigestResult {
  const digest = createDigest();
  const parser = createSlowLogParser({
    onEvent: digest.add,
    onSkip: (skip) => digest.addSkip({ ...skip, file }),
  });
  parser.push(readFileSync(file).toString('latin1'));
  parser.end();
  return digest.result();
}

describe('digestFilesInThread in small chunks = one push', () => {
  it.each([1, 3, 64, 1000, 65536])('chunks of %i bytes', async (chunkSize) => {
    // Small chunks on small files only (1-byte reads of the big generated logs take long).
    const some = chunkSize < 64 ? files.filter((file) => readFileSync(file).length < 20_000) : files;
    expect(some.length).toBeGreaterThan(10);
    for (const file of some) {
      const { source: _, ...result } = await digestFilesInThread([file], { chunkSize, parallel: false });
      expect(result, file).toEqual(inMemory(file));
    }
  });
});
