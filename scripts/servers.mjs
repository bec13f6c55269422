#!/usr/bin/env node
// Start the test servers by hand (foreground, Ctrl+C stops them), reap leftovers, or clean the cache.
/*
 * usage:
 *   node scripts/servers.mjs start [mysql|mariadb ...] [--performance-schema]
 *       Prints `export SARGABLE_TEST_*` lines for another shell, then waits; Ctrl+C stops the servers.
 *   node scripts/servers.mjs reap     stop servers left behind by killed test runs
 *   node scripts/servers.mjs clean [--force]  reap, then delete the cache (binaries, template datadirs)
 *   node scripts/servers.mjs where    print the cache directory
 * The implementation is tests/support/servers.ts (loaded through tsx).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const harness = await tsImport(
  pathToFileURL(path.join(root, 'tests/support/servers.ts')).href,
  import.meta.url,
);

const [command = 'help', ...rest] = process.argv.slice(2);

async function start(args) {
  const performanceSchema = args.includes('--performance-schema');
  const unknown = args.filter((arg) => arg.startsWith('-') && arg !== '--performance-schema');
  const chosen = args.filter((arg) => !arg.startsWith('-'));
  const bad = chosen.filter((name) => !harness.flavors.includes(name));
  if (unknown.length > 0 || bad.length > 0) {
    process.stderr.write(`unknown argument(s): ${[...unknown, ...bad].join(' ')}\n`);
    process.exit(2);
  }
  const flavors = chosen.length > 0 ? chosen : harness.flavors;
  const servers = [];
  let stopping = false;
  async function stopAll(code) {
    if (stopping) return;
    stopping = true;
    process.stderr.write('stopping…\n');
    await Promise.all(servers.map((server) => server.stop()));
    process.exit(code);
  }
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  try {
    for (const server of await Promise.all(
      flavors.map((flavor) => harness.startServer(flavor, { performanceSchema })),
    )) {
      servers.push(server);
    }
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    await stopAll(1);
  }
  for (const server of servers) {
    const names = harness.serverEnv[server.flavor];
    process.stdout.write(
      `# ${server.flavor} ${server.version}, pid ${server.pid}, socket ${server.socket}\n` +
        `export ${names.url}='${server.url}'\n` +
        `export ${names.readOnlyUrl}='${server.readOnlyUrl}'\n`,
    );
  }
  process.stderr.write('servers running; Ctrl+C stops them\n');
  setInterval(() => {}, 1 << 30);
}

switch (command) {
  case 'start':
    await start(rest);
    break;
  case 'reap':
    process.stdout.write(`reaped ${await harness.reapStaleServers()} server(s)\n`);
    break;
  case 'clean': {
    await harness.reapStaleServers();
    const dir = harness.cacheDir();
    const registry = path.join(dir, 'servers');
    const running = fs.existsSync(registry)
      ? fs.readdirSync(registry).filter((name) => name.endsWith('.json'))
      : [];
    if (running.length > 0 && !rest.includes('--force')) {
      process.stderr.write(
        `${running.length} server(s) of a running test are using ${dir}; retry later or pass --force\n`,
      );
      process.exit(1);
    }
    fs.rmSync(dir, { recursive: true, force: true });
    process.stdout.write(`removed ${dir}\n`);
    break;
  }
  case 'where':
    process.stdout.write(`${harness.cacheDir()}\n`);
    break;
  default:
    process.stdout.write(
      'usage: node scripts/servers.mjs start [mysql|mariadb ...] [--performance-schema] | reap | clean | where\n',
    );
    process.exit(command === 'help' || command === '--help' ? 0 : 2);
}
