// `npm start`: builds, then launches the desktop app in Electron; without an Electron binary, starts web mode.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// SARGABLE_NO_BUILD=1 reuses an existing dist/ (tests and quick restarts).
if (!(process.env.SARGABLE_NO_BUILD && existsSync(path.join(root, 'dist/web/server.cjs')))) {
  const built = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

/**
 * The Electron binary, when one was installed. We read the package's path.txt ourselves instead of
 * require('electron'): recent versions try to download a missing binary on require, which hangs
 * offline.
 */
function electronBinary() {
  try {
    const require = createRequire(import.meta.url);
    const packageDir = path.dirname(require.resolve('electron/package.json'));
    const pathFile = path.join(packageDir, 'path.txt');
    if (!existsSync(pathFile)) return undefined;
    const relative = readFileSync(pathFile, 'utf8').trim();
    const distDir = process.env.ELECTRON_OVERRIDE_DIST_PATH || path.join(packageDir, 'dist');
    const binary = path.join(distDir, relative);
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

const binary = electronBinary();
const args = process.argv.slice(2);
let child;
if (binary) {
  child = spawn(binary, [path.join(root, 'dist/main/app.cjs'), ...args], { stdio: 'inherit' });
} else {
  process.stdout.write(
    'Electron binary not found (installed with ELECTRON_SKIP_BINARY_DOWNLOAD?): starting web mode instead.\n',
  );
  child = spawn(process.execPath, [path.join(root, 'dist/web/server.cjs'), ...args], { stdio: 'inherit' });
}
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
