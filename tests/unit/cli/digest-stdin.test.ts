// `sargable digest -`: standard input streams through like a file (its raw bytes, in chunks), with the file's result.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../support/cli.js';

let dir: string;
let log: string;
let bytes: Buffer;

const event = (sql: string, second: number): string =>
  `# Time: 2026-11-26T10:00:0${second}.000001Z\n# User@Host: app[app] @ localhost [127.0.0.1]  Id:    42\n` +
  `# Query_time: 0.000${second}00  Lock_time: 0.000002 Rows_sent: 1  Rows_examined: 0\nSET timestamp=1795000000;\n${sql};\n`;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-digest-stdin-'));
  log = path.join(dir, 'slow.log');
  // Bytes that are not UTF-8 (a Latin-1 é, NUL, 0xFF in a _binary literal), as servers log them.
  bytes = Buffer.from(
    event("SELECT name FROM t WHERE name = 'caf\xe9'", 1) +
      event("INSERT INTO b VALUES (_binary'\x00\xff\x01')", 2) +
      event("SELECT 'a;\n# Query_time: 9' AS x", 3) +
      event('SELECT 1', 4),
    'latin1',
  );
  writeFileSync(log, bytes);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sargable digest -', () => {
  it('gives the file’s result from standard input, read in chunks, bytes as they are', async () => {
    const fromFile = await runCliCaptured(['digest', '--format', 'json', log], { cwd: '.' });
    expect(fromFile.code).toBe(0);
    const fromStdin = await runCliCaptured(['digest', '--format', 'json', '-'], {
      cwd: '.',
      // What readStdin would give (decoded text): the digest must not read it.
      stdin: bytes.toString('utf8'),
      stdinChunks: async function* () {
        for (let at = 0; at < bytes.length; at += 7) yield bytes.subarray(at, at + 7);
      },
    });
    expect(fromStdin.code).toBe(0);
    const file = JSON.parse(fromFile.stdout) as { source: { files: { bytes: number }[] } };
    const stdin = JSON.parse(fromStdin.stdout) as typeof file;
    expect(stdin.source.files).toEqual([{ path: '-', bytes: bytes.length }]);
    const rest = ({ source: _source, ...result }: typeof file) => result;
    expect(rest(stdin)).toEqual(rest(file));
  });
});
