// Compressed slow logs: gzip files give the plain file's digest; other formats and damaged data get clear errors.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { digestFilesInThread, type SlowLogFileResult } from '../../../src/main/services/slowlog-file.js';
import { AdvisorError } from '../../../src/shared/errors.js';

const fixtures = fileURLToPath(new URL('../../fixtures/slowlogs/', import.meta.url));
const dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-compressed-'));
const logs = [
  ...readdirSync(`${fixtures}percona`)
    .filter((name) => /^slow0[0-5]\d\.txt$/.test(name))
    .map((name) => `${fixtures}percona/${name}`),
  `${fixtures}generated/mysql-workload.log`,
  `${fixtures}generated/mariadb-workload.log`,
];

/** The digest without what depends on the file itself (name, size, time taken). */
function comparable(result: SlowLogFileResult): unknown {
  const { source, ...rest } = result;
  return { ...rest, skipped: rest.skipped.map(({ file: _file, ...skip }) => skip), events: source.events };
}

describe('compressed slow logs', () => {
  it.each(logs)('%s gzip-compressed gives the plain file’s digest', async (file) => {
    const plain = await digestFilesInThread([file], { parallel: false });
    const gz = path.join(dir, `${path.basename(file)}.gz`);
    writeFileSync(gz, gzipSync(readFileSync(file)));
    // Small zlib chunks: records cross chunk boundaries everywhere.
    expect(comparable(await digestFilesInThread([gz], { chunkSize: 4096 }))).toEqual(comparable(plain));
  });

  it('a gzip file made of several members (cat a.gz b.gz) reads as gzip -d does', async () => {
    const [a, b] = [logs[0]!, logs[1]!];
    const both = path.join(dir, 'both.log');
    writeFileSync(both, Buffer.concat([readFileSync(a), readFileSync(b)]));
    const gz = path.join(dir, 'members.log.gz');
    writeFileSync(gz, Buffer.concat([gzipSync(readFileSync(a)), gzipSync(readFileSync(b))]));
    const plain = await digestFilesInThread([both], { parallel: false });
    expect(comparable(await digestFilesInThread([gz]))).toEqual(comparable(plain));
  });

  it('progress counts uncompressed bytes against the size in the gzip trailer, up to 100 %', async () => {
    const file = logs.at(-2)!;
    const gz = path.join(dir, 'progress.log.gz');
    writeFileSync(gz, gzipSync(readFileSync(file)));
    const seen: [number, number][] = [];
    await digestFilesInThread([gz], {
      chunkSize: 1024,
      progressIntervalMs: 0,
      onProgress: (p) => seen.push([p.bytesRead, p.totalBytes]),
    });
    expect(seen.at(-1)).toEqual([readFileSync(file).length, readFileSync(file).length]);
  });

  it('a gzip file cut short is an INVALID_INPUT error that says how to check and recover it', async () => {
    const gz = path.join(dir, 'cut.log.gz');
    const whole = gzipSync(readFileSync(logs.at(-1)!));
    writeFileSync(gz, whole.subarray(0, Math.floor(whole.length / 2)));
    const error = (await digestFilesInThread([gz]).catch((e: unknown) => e)) as AdvisorError;
    expect(error).toBeInstanceOf(AdvisorError);
    expect([error.code, error.userMessage]).toEqual([
      'INVALID_INPUT',
      expect.stringMatching(/gzip data that is damaged or cut short.*gzip -t/),
    ]);
  });

  it.each([
    ['bzip2', ['bzip2', '-c'], /bunzip2 -c/],
    ['xz', ['xz', '-c'], /xz -dc/],
  ] as const)('a %s file is refused with the command that decompresses it', async (kind, command, hint) => {
    const file = logs[0]!;
    const made = spawnSync(command[0], [...command.slice(1), file]);
    // The magic bytes decide; when the tool is missing here, write them by hand.
    const bytes =
      made.status === 0
        ? made.stdout
        : Buffer.from(kind === 'bzip2' ? [0x42, 0x5a, 0x68, 0x39] : [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]);
    const target = path.join(dir, `refused.${kind}`);
    writeFileSync(target, bytes);
    const error = (await digestFilesInThread([target]).catch((e: unknown) => e)) as AdvisorError;
    expect([
      error.code,
      hint.test(error.userMessage),
      error.userMessage.includes('sargable digest -'),
    ]).toEqual(['INVALID_INPUT', true, true]);
  });
});
