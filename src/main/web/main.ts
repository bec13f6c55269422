// `npm run web` entry: parses flags, starts the bridge on loopback, prints a one-time login link and
// opens the browser through a private launch file (no secret in any process's argv).

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServices } from '../services/index.js';
import { createHandlers } from '../handlers/index.js';
import { createEventHandlers } from '../events.js';
import { isLoopback, startWebServer } from './server.js';

interface WebFlags {
  port: number;
  host: string;
  hostExplicit: boolean;
  open: boolean;
  /** Folders whose files may be typed as paths in the UI (otherwise files are uploaded). */
  allowDirs: string[];
}

function parseFlags(argv: readonly string[]): WebFlags {
  const flags: WebFlags = {
    port: 5170,
    host: '127.0.0.1',
    hostExplicit: false,
    open: !process.env.CI,
    allowDirs: [],
  };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    const next = () => {
      const value = argv[++index];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      return value;
    };
    if (arg === '--port') flags.port = Number(next());
    else if (arg?.startsWith('--port=')) flags.port = Number(arg.slice(7));
    else if (arg === '--host') {
      flags.host = next();
      flags.hostExplicit = true;
    } else if (arg === '--allow-dir') flags.allowDirs.push(next());
    else if (arg === '--no-open') flags.open = false;
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(
        'Usage: npm run web [-- --port N] [--host ADDRESS] [--no-open] [--allow-dir FOLDER]...\n' +
          '  --allow-dir FOLDER  paths typed in the UI may name files inside FOLDER (repeatable);\n' +
          '                      other files are picked with "Choose file…" and uploaded\n',
      );
      process.exit(0);
    } else throw new Error(`Unknown option ${arg}`);
  }
  if (!Number.isInteger(flags.port) || flags.port < 0 || flags.port > 65535)
    throw new Error('--port must be 0..65535');
  return flags;
}

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2));
  if (!isLoopback(flags.host)) {
    if (!flags.hostExplicit) throw new Error('Refusing to bind a non-loopback address without --host');
    process.stderr.write(
      `WARNING: binding ${flags.host}: anyone who can reach this address and knows the token can use your connections.\n`,
    );
  }
  const services = createServices('web', { allowDirs: flags.allowDirs });
  const handlers = createHandlers(services);
  const events = createEventHandlers(services);
  const staticDir = path.join(__dirname, '..', 'renderer');
  const server = await startWebServer({
    handlers,
    events,
    staticDir,
    port: flags.port,
    host: flags.host,
    ...(services.files ? { files: services.files } : {}),
    ...(process.env.SARGABLE_WEB_TOKEN ? { token: process.env.SARGABLE_WEB_TOKEN } : {}),
  });
  // The printed link carries a one-time code (stdout is not argv); it works once, then the browser
  // keeps an HttpOnly session cookie and the address bar shows the clean URL.
  process.stdout.write(`Sargable web mode: ${server.loginUrl()}\n`);
  process.stdout.write(`(the link works once; later visits in the same browser use ${server.url})\n`);
  const launchDir = flags.open ? openBrowser(server.url, server.mintCode()) : undefined;
  const shutdown = () => {
    if (launchDir) rmSync(launchDir, { recursive: true, force: true });
    // A running slow-log window restores the server's settings before we exit.
    void Promise.allSettled([services.capture?.cancelAll()])
      .then(() => services.connections.closeAll())
      .finally(() => server.close().finally(() => process.exit(0)));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

/**
 * Opens the browser on a launch file in a private (0700) directory: the file (0600) posts the one-time
 * code to /auth, so the browser's and the opener's argv carry only the file's path, never a secret.
 * Returns the directory (removed on exit).
 */
function openBrowser(url: string, code: string): string | undefined {
  let file: string;
  let dir: string;
  try {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-web-'));
    file = path.join(dir, 'open.html');
    writeFileSync(file, launchPage(url, code), { mode: 0o600 });
  } catch {
    return undefined;
  }
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open';
  const args = process.platform === 'win32' ? ['/c', 'start', '', file] : [file];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No browser opener: the URL is printed above.
  }
  return dir;
}

/** The launch file: a form that posts the code to /auth at once (a button when scripts are off). */
export function launchPage(url: string, code: string): string {
  const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return (
    '<!doctype html><meta charset="utf-8"><title>Sargable</title>' +
    `<form method="post" action="${escape(new URL('/auth', url).href)}">` +
    `<input type="hidden" name="code" value="${escape(code)}">` +
    '<button type="submit">Open Sargable</button></form>' +
    '<script>document.forms[0].submit()</script>'
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`sargable web: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
