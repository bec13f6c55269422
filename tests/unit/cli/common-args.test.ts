// The commands' shared `--help` / `--format` handling (parseCommonArgs) and `digest --dsn` routing.
import { describe, expect, it } from 'vitest';
import { parseCommonArgs } from '../../../src/cli/args.js';
import { UsageError } from '../../../src/cli/io.js';
import { commands } from '../../../src/cli/main.js';
import { runCliCaptured } from '../../support/cli.js';

const REPORTING = ['analyze', 'capture', 'digest', 'explain', 'locks', 'sqlmode'];

function io() {
  const out: string[] = [];
  return {
    out,
    io: {
      stdout: (text: string) => void out.push(text),
      stderr: () => undefined,
      readStdin: async () => '',
      env: {},
      cwd: '.',
    },
  };
}

describe('parseCommonArgs', () => {
  it('prints the usage for --help / -h and returns nothing to run', () => {
    for (const flag of ['--help', '-h']) {
      const { out, io: cliIo } = io();
      expect(parseCommonArgs([flag], { limit: { type: 'string' } }, { io: cliIo, usage: 'Usage: x' })).toBe(
        undefined,
      );
      expect(out).toEqual(['Usage: x\n']);
    }
  });

  it('defaults --format to text, accepts json, refuses anything else', () => {
    const { io: cliIo } = io();
    const parsed = parseCommonArgs(
      ['--limit', '3', 'a.sql'],
      { limit: { type: 'string' } },
      { io: cliIo, usage: '' },
    );
    expect(parsed).toMatchObject({ format: 'text', positionals: ['a.sql'], values: { limit: '3' } });
    expect(parseCommonArgs(['--format', 'json'], {}, { io: cliIo, usage: '' })?.format).toBe('json');
    expect(() => parseCommonArgs(['--format', 'xml'], {}, { io: cliIo, usage: '' })).toThrow(
      new UsageError("--format must be text or json, not 'xml'"),
    );
    expect(() => parseCommonArgs(['--nope'], {}, { io: cliIo, usage: '' })).toThrow(UsageError);
  });
});

describe('every reporting command', () => {
  it.each(REPORTING)('%s: --help exits 0 with its usage, --format xml exits 2', async (name) => {
    expect(Object.keys(commands)).toContain(name);
    const help = await runCliCaptured([name, '--help'], { cwd: '.' });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(`Usage: sargable ${name}`);
    const bad = await runCliCaptured([name, '--format', 'xml'], { cwd: '.' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--format must be text or json, not 'xml'");
  });

  it('digest --dsn --help shows the capture command (digest --dsn is routed to capture)', async () => {
    const help = await runCliCaptured(['digest', '--dsn', 'mysql://u@127.0.0.1:1/db', '--help'], {
      cwd: '.',
    });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: sargable capture');
  });
});
