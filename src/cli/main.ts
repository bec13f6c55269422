// The `sargable` command: dispatches subcommands, maps errors to messages and exit codes.

import { AdvisorError } from '../shared/errors.js';
import { APP_VERSION } from '../main/version.js';
import { UsageError, type CliCommand, type CliIo } from './io.js';
import { run as analyze } from './commands/analyze.js';
import { run as digest } from './commands/digest.js';
import { run as sqlmode } from './commands/sqlmode.js';
import { run as explain } from './commands/explain.js';
import { run as locks } from './commands/locks.js';

interface CommandEntry {
  summary: string;
  load: () => Promise<CliCommand> | CliCommand;
}

/** Subcommands; later issues add theirs here. */
export const commands: Record<string, CommandEntry> = {
  locks: {
    summary: 'lock waits: blocking tree, metadata locks, deadlocks, NOWAIT/SKIP LOCKED rewrites',
    load: () => locks,
  },
  analyze: { summary: 'find non-sargable predicates and propose fixes', load: () => analyze },
  export: {
    summary: 'write the accepted index changes as one online DDL script with rollback',
    load: async () => (await import('./commands/export.js')).run,
  },
  explain: {
    summary: 'EXPLAIN statements as a plan tree, or parse pasted EXPLAIN output',
    load: () => explain,
  },
  capture: {
    summary: 'rank what ran on a live server over a window (performance_schema digests, slow_log table)',
    load: async () => (await import('./commands/capture.js')).run,
  },
  indexes: {
    summary: 'design one index set for a workload (query file, slow log, or live digests)',
    load: async () => (await import('./commands/indexes.js')).run,
  },
  digest: {
    summary: 'group a slow query log by fingerprint (pt-query-digest compatible)',
    load: () => digest,
  },
  sqlmode: {
    summary: "show a server's sql_mode and defaults, or what breaks under another sql_mode",
    load: () => sqlmode,
  },
};

export function helpText(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  const list = Object.entries(commands)
    .map(([name, entry]) => `  ${name.padEnd(width)}  ${entry.summary}`)
    .join('\n');
  return `sargable ${APP_VERSION} — query and index advisor for MySQL-family servers

Usage: sargable <command> [options]

Commands:
${list}

Run 'sargable <command> --help' for a command's options.
Output formats: --format text (default) or --format json (a stable contract, see docs/cli.md).
`;
}

const isDsnFlag = (arg: string): boolean => arg === '--dsn' || arg.startsWith('--dsn=');

/** Run the CLI; returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(helpText());
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-V') {
    io.stdout(`${APP_VERSION}\n`);
    return 0;
  }
  const entry = commands[name];
  if (!entry) {
    io.stderr(`sargable: unknown command '${name}'. Run 'sargable --help' for the list.\n`);
    return 2;
  }
  // `digest --dsn URL` digests what ran on a live server: that is `capture` (see `sargable digest --help`).
  const target = name === 'digest' && rest.some(isDsnFlag) ? (commands.capture ?? entry) : entry;
  try {
    const command = await target.load();
    return await command(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`sargable ${name}: ${error.message}\nRun 'sargable ${name} --help' for usage.\n`);
      return 2;
    }
    if (error instanceof AdvisorError) {
      const code = error.details.serverCode ? ` (server error ${error.details.serverCode})` : '';
      io.stderr(
        `sargable ${name}: ${error.userMessage}${code}\n${error.details.hint ? `hint: ${error.details.hint}\n` : ''}`,
      );
      return 2;
    }
    io.stderr(
      `sargable ${name}: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 2;
  }
}

/** The process entry point. */
export function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    readStdin: async () => {
      if (process.stdin.isTTY)
        throw new UsageError('No FILE given and standard input is a terminal: pass a file or pipe SQL in.');
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    env: process.env,
    cwd: process.cwd(),
  };
}
