// `npm start`: builds, then launches the desktop app in Electron; without an Electron binary, starts web mode.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

function electronBinary() {
  try {
    const require = createRequire(import.meta.url);
    const binary = require('electron'); // the package exports the binary's path, or throws when it was not downloaded
    return typeof binary === 'string' && existsSync(binary) ? binary : undefined;
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
