// Kill the MySQL test server and start it again in place (same argv: port, datadir, pid file) for fault e2e tests.
/*
 * The server was started by the harness (tests/support/servers.ts) in another process, so the spec
 * finds it by its `--port=` in /proc and reads its argv from /proc/PID/cmdline, as the integration
 * fault test does. The restarted process writes the same pid file; the harness reads that file when
 * it stops its servers, so nothing is left running after the suite.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import mysql from 'mysql2/promise';
import { isAlive } from '../../support/servers.js';
import { waitFor } from '../../support/wait.js';

/** A running server process: its PID and argv. */
export interface ServerProcess {
  pid: number;
  argv: string[];
}

/** The mysqld listening on `port` (started with `--port=<port>` and a `--datadir=`). */
export function findServerProcess(port: number): ServerProcess {
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let argv: string[];
    try {
      argv = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean);
    } catch {
      continue;
    }
    if (argv.includes(`--port=${port}`) && argv.some((arg) => arg.startsWith('--datadir='))) {
      return { pid: Number(name), argv };
    }
  }
  throw new Error(`No server process with --port=${port} found in /proc.`);
}

/** SIGKILL the server behind `url`; returns its process so {@link startAgain} can restart it. */
export async function killServer(url: URL): Promise<ServerProcess> {
  const server = findServerProcess(Number(url.port || 3306));
  process.kill(server.pid, 'SIGKILL');
  await waitFor('the server to die', () => !isAlive(server.pid), 15_000);
  return server;
}

/** Start the killed server again with its own argv and wait until it accepts connections (crash recovery included). */
export async function startAgain(server: ServerProcess, url: URL, timeoutMs = 120_000): Promise<number> {
  const child = spawn(server.argv[0]!, server.argv.slice(1), { detached: true, stdio: 'ignore' });
  child.unref();
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${server.argv[0]}`);
  await waitFor(
    'the restarted server to accept connections',
    async () => {
      if (!isAlive(pid)) throw new Error('the restarted server exited; see its error log');
      const probe = await mysql
        .createConnection({ uri: url.href, connectTimeout: 2_000 })
        .catch(() => undefined);
      await probe?.end();
      return probe !== undefined;
    },
    timeoutMs,
  );
  return pid;
}
