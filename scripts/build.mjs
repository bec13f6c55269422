// Builds everything into dist/: main, preload, web bridge and CLI with esbuild; the renderer with Vite.
// Usage: node scripts/build.mjs [--no-renderer]
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const started = Date.now();

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  define: { __SARGABLE_VERSION__: JSON.stringify(pkg.version) },
  // Optional native add-ons (ssh2's crypto, cpu-features) stay outside the bundle: when they were not
  // built, or were built for another ABI (Electron), their require fails and ssh2 uses its pure-JS code.
  external: ['electron', '*.node'],
};

// Worker-thread entry points live next to their services as *-worker.ts.
const servicesDir = path.join(root, 'src/main/services');
const workers = existsSync(servicesDir)
  ? readdirSync(servicesDir).filter((name) => name.endsWith('-worker.ts'))
  : [];

await Promise.all([
  build({
    ...common,
    entryPoints: [path.join(root, 'src/main/app.ts')],
    outfile: path.join(root, 'dist/main/app.cjs'),
  }),
  build({
    ...common,
    entryPoints: [path.join(root, 'src/preload/index.ts')],
    outfile: path.join(root, 'dist/preload/index.cjs'),
  }),
  build({
    ...common,
    entryPoints: [path.join(root, 'src/main/web/main.ts')],
    outfile: path.join(root, 'dist/web/server.cjs'),
  }),
  build({
    ...common,
    entryPoints: [path.join(root, 'src/cli/bin.ts')],
    outfile: path.join(root, 'dist/cli/sargable.cjs'),
  }),
  ...workers.map((name) =>
    build({
      ...common,
      entryPoints: [path.join(servicesDir, name)],
      outfile: path.join(root, 'dist/workers', name.replace(/\.ts$/, '.cjs')),
    }),
  ),
]);

if (!process.argv.includes('--no-renderer') && existsSync(path.join(root, 'src/renderer/index.html'))) {
  const { build: viteBuild } = await import('vite');
  await viteBuild({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
}
process.stdout.write(`build: dist/ ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
