// `npm run web [-- --port N]`: builds when needed, then starts web mode (the renderer + loopback API bridge).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const server = path.join(root, 'dist/web/server.cjs');
if (
  !existsSync(server) ||
  !existsSync(path.join(root, 'dist/renderer/index.html')) ||
  process.env.SARGABLE_REBUILD
) {
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const child = spawn(process.execPath, [server, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
// `npm start` runs this script under `sh -c`; a SIGTERM to npm ends npm and the shell but never reaches
// us, which left the server running. When our parent is gone (we were re-parented), stop the child too.
const parentPid = process.ppid;
const orphanWatch = setInterval(() => {
  if (process.ppid === parentPid) return;
  clearInterval(orphanWatch);
  child.kill('SIGTERM');
  setTimeout(() => child.kill('SIGKILL'), 5000).unref();
}, 250);
orphanWatch.unref();
