// The pt-osc / gh-ost scripts are real bash: `bash -n` accepts every golden one, and run with a stand-in for the tool
// they dry-run every table first, pass --execute only when asked, and keep the password off every command line.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planExport, renderScript, type ExportItem } from '../../../src/core/export/index.js';
import { itemId, sourceQuery } from '../../../src/core/workspace/model.js';

const CASES = path.join(import.meta.dirname, '../../fixtures/export/cases');
const dir = mkdtempSync(path.join(tmpdir(), 'sargable-shell-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const items: ExportItem[] = [
  ['orders', 'ALTER TABLE orders ADD INDEX idx_o (customer_id, created);'],
  ['customers', 'ALTER TABLE customers ADD INDEX idx_c ((LOWER(email)));'],
].map(([table, ddl]) => ({
  id: itemId(table!, { kind: 'index', ddl: [ddl!] }),
  table: table!,
  kind: 'index',
  ddl: [ddl!],
  notes: ["it's quoted"],
  sources: [sourceQuery(`SELECT * FROM ${table} WHERE note = 'it''s'`, 'pasted')],
}));

function render(variant: 'pt-osc' | 'gh-ost', database: string | null): string {
  const file = path.join(dir, `${variant}-${database ?? 'none'}.sh`);
  const { text } = renderScript(planExport(items, 'mysql', null), {
    flavor: 'mysql',
    version: '8.0.33',
    variant,
    database,
    generatedAt: '2025-01-01T00:00:00.000Z',
    sargableVersion: '0.0.0-test',
  });
  writeFileSync(file, text);
  return file;
}

/** A stand-in tool that logs its arguments and the options file it was given. */
function fakeTool(): { command: string; log: string } {
  const log = path.join(dir, `calls-${Math.random().toString(16).slice(2)}.log`);
  const command = path.join(dir, `tool-${Math.random().toString(16).slice(2)}`);
  writeFileSync(
    command,
    `#!/usr/bin/env bash\nprintf '%s|' "$@" >>'${log}'\necho >>'${log}'\nfor a in "$@"; do case "$a" in --defaults-file=*|--conf=*) cat "\${a#*=}" >>'${log}.cnf';; esac; done\n`,
  );
  chmodSync(command, 0o755);
  return { command, log };
}

function run(file: string, args: string[], env: Record<string, string>) {
  return spawnSync('bash', [file, ...args], {
    encoding: 'utf8',
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
  });
}

describe('pt-osc and gh-ost scripts', () => {
  it('bash -n accepts every golden shell script', () => {
    const shells = readdirSync(CASES).filter((name) =>
      readFileSync(path.join(CASES, name), 'utf8').startsWith('#!/usr/bin/env bash'),
    );
    expect(shells.length).toBeGreaterThanOrEqual(2);
    for (const name of shells) {
      const result = spawnSync('bash', ['-n', path.join(CASES, name)], { encoding: 'utf8' });
      expect(result.status, `${name}: ${result.stderr}`).toBe(0);
    }
  });

  it('pt-osc: dry run of every table by default, a DSN from the environment, MYSQL_PWD only in a private options file', () => {
    const file = render('pt-osc', 'shop');
    const tool = fakeTool();
    const env = {
      PT_OSC: tool.command,
      MYSQL_HOST: 'db1',
      MYSQL_PORT: '3307',
      MYSQL_USER: 'dba',
      MYSQL_PWD: 's3cr"et\\x',
    };
    const result = run(file, [], env);
    expect(result.status, result.stderr).toBe(0);
    const calls = readFileSync(tool.log, 'utf8').trim().split('\n');
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatch(
      /^--defaults-file=\/[^|]+\|--alter\|ADD INDEX `idx_o` \(`customer_id`, `created`\)\|--dry-run\|D=shop,t=orders,h=db1,P=3307,u=dba\|$/,
    );
    expect(calls[1]).toContain('|--dry-run|D=shop,t=customers,h=db1,P=3307,u=dba|');
    expect(readFileSync(tool.log, 'utf8')).not.toContain('s3cr');
    expect(readFileSync(`${tool.log}.cnf`, 'utf8')).toContain('[client]\npassword="s3cr"et\\\\x"');
    expect(result.stdout).toContain('Dry run finished: nothing was changed');

    const executed = fakeTool();
    const real = run(file, ['--execute'], { ...env, PT_OSC: executed.command, MYSQL_DATABASE: 'other' });
    expect(real.status, real.stderr).toBe(0);
    const modes = readFileSync(executed.log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => `${/--(dry-run|execute)\|/.exec(line)?.[1]} ${/t=(\w+)/.exec(line)?.[1]}`);
    expect(modes).toEqual(['dry-run orders', 'dry-run customers', 'execute orders', 'execute customers']);
    expect(readFileSync(executed.log, 'utf8')).toContain('D=other,t=orders');
  });

  it('gh-ost: noop first (no --execute), --conf from MYSQL_DEFAULTS_FILE, then --execute when asked', () => {
    const file = render('gh-ost', 'shop');
    const tool = fakeTool();
    writeFileSync(path.join(dir, 'client.cnf'), '[client]\nuser=dba\n');
    const result = run(file, ['--execute'], { GH_OST: tool.command, MYSQL_DEFAULTS_FILE: 'client.cnf' });
    expect(result.status, result.stderr).toBe(0);
    const calls = readFileSync(tool.log, 'utf8').trim().split('\n');
    expect(calls).toHaveLength(4);
    expect(calls[0]).toBe(
      `--database=shop|--table=orders|--alter=ADD INDEX \`idx_o\` (\`customer_id\`, \`created\`)|--allow-on-master|--conf=${dir}/client.cnf|`,
    );
    expect(calls.map((call) => call.includes('|--execute|'))).toEqual([false, false, true, true]);
    const unreadable = run(file, [], { GH_OST: tool.command, MYSQL_DEFAULTS_FILE: 'missing.cnf' });
    expect(unreadable.status).toBe(2);
    expect(unreadable.stderr).toContain(`MYSQL_DEFAULTS_FILE: ${dir}/missing.cnf is not a readable file`);
  });

  it('without a database in the export, MYSQL_DATABASE is required; a missing tool names its package', () => {
    const file = render('pt-osc', null);
    const missing = run(file, [], { PT_OSC: fakeTool().command });
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain('set MYSQL_DATABASE to the database to change');
    const noTool = run(render('pt-osc', 'shop'), [], { PT_OSC: path.join(dir, 'not-installed') });
    expect(noTool.status).toBe(127);
    expect(noTool.stderr).toContain('install percona-toolkit');
  });
});
