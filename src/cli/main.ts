// The `sargable` command: dispatches subcommands, maps errors to messages and exit codes.

import { AdvisorError } from '../shared/errors.js';
import { decodeText, MAX_INPUT_BYTES, tooLarge } from './input.js';
import { APP_VERSION } from '../main/version.js';
import { UsageError, type CliCommand, type CliIo } from './io.js';
import { extractCredentialFlags, resolveCredentials } from './credentials.js';

interface CommandEntry {
  summary: string;
  load: () => Promise<CliCommand> | CliCommand;
}

/**
 * Subcommands; later issues add theirs here. Each is loaded when it runs, so a command loads only
 * its own modules: `sargable digest FILE` does not evaluate the MySQL driver, SSH or the SQL parser
 * (measured: 8-20 MiB of its peak RSS on a 110,000-class log, docs/slowlog.md).
 */
export const commands: Record<string, CommandEntry> = {
  locks: {
    summary: 'lock waits: blocking tree, metadata locks, deadlocks, NOWAIT/SKIP LOCKED rewrites',
    load: async () => (await import('./commands/locks.js')).run,
  },
  analyze: {
    summary: 'find non-sargable predicates and propose fixes',
    load: async () => (await import('./commands/analyze.js')).run,
  },
  export: {
    summary: 'write the accepted index changes as one online DDL script with rollback',
    load: async () => (await import('./commands/export.js')).run,
  },
  explain: {
    summary: 'EXPLAIN statements as a plan tree, or parse pasted EXPLAIN output',
    load: async () => (await import('./commands/explain.js')).run,
  },
  capture: {
    summary: 'rank what ran on a live server over a window (performance_schema digests, slow_log table)',
    load: async () => (await import('./commands/capture.js')).run,
  },
  indexes: {
    summary: 'design one index set for a workload (query file, slow log, or live digests)',
    load: async () => (await import('./commands/indexes.js')).run,
  },
  history: {
    summary: 'export the stored capture history (windows, classes per window) as text, JSON or CSV',
    load: async () => (await import('./commands/history.js')).run,
  },
  digest: {
    summary: 'group a slow query log by fingerprint (pt-query-digest compatible)',
    load: async () => (await import('./commands/digest.js')).run,
  },
  sqlmode: {
    summary: "show a server's sql_mode and defaults, or what breaks under another sql_mode",
    load: async () => (await import('./commands/sqlmode.js')).run,
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

Passwords (for --dsn mysql://user@host:3306/db; never put one in argv, where every local user sees it):
  --password-file FILE   first line of FILE (must be chmod 600)
  --ask-password         prompt on the terminal
  --login-path NAME      mysql_config_editor's ~/.mylogin.cnf (also gives user, host, port)
  SARGABLE_PASSWORD or MYSQL_PWD in the environment
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
    // Password sources shared by every command that connects (docs/security.md, "Passwords").
    const { rest: commandArgv, flags } = extractCredentialFlags(rest);
    const credentials = await resolveCredentials(flags, io);
    const hasDsn = commandArgv.some((arg) => arg === '--dsn' || arg.startsWith('--dsn='));
    if (flags.loginPath !== undefined && !hasDsn) {
      // The login path names the server too: connect there (user and password are filled in below).
      const host = credentials.host ?? 'localhost';
      commandArgv.push(
        '--dsn',
        `mysql://${host.includes(':') ? `[${host}]` : host}:${credentials.port ?? 3306}/`,
      );
    }
    return await command(commandArgv, { ...io, credentials });
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
    stdoutDrained: () =>
      process.stdout.writableNeedDrain
        ? new Promise<void>((resolve) => process.stdout.once('drain', () => resolve()))
        : Promise.resolve(),
    stderr: (text) => void process.stderr.write(text),
    readStdin: async () => {
      if (process.stdin.isTTY)
        throw new UsageError('No FILE given and standard input is a terminal: pass a file or pipe SQL in.');
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of process.stdin) {
        size += (chunk as Buffer).length;
        if (size > MAX_INPUT_BYTES) throw tooLarge('standard input', size);
        chunks.push(chunk as Buffer);
      }
      return decodeText(Buffer.concat(chunks), 'standard input');
    },
    stdinChunks: () => {
      if (process.stdin.isTTY)
        throw new UsageError('No FILE given and standard input is a terminal: pass a file or pipe SQL in.');
      return process.stdin as AsyncIterable<Uint8Array>;
    },
    env: process.env,
    cwd: process.cwd(),
    ...(process.stdin.isTTY ? { readPassword: promptHidden } : {}),
  };
}

/** Reads one line from the terminal with echo off (raw mode); Ctrl+C cancels. */
function promptHidden(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    // Echo off before the prompt shows, so nothing typed (or pasted) after it is echoed.
    stdin.setRawMode(true);
    process.stderr.write(prompt);
    stdin.setEncoding('utf8');
    stdin.resume();
    let value = '';
    const finish = (error?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish();
        if (char === '\u0003') return finish(new UsageError('cancelled at the password prompt.'));
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else value += char;
      }
    };
    stdin.on('data', onData);
  });
}
