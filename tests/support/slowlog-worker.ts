// The slow-log worker built as scripts/build.mjs builds it (esbuild, CJS), so tests run real worker threads.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Bundles src/main/services/slowlog-worker.ts to `outfile`. */
export async function buildSlowLogWorker(outfile: string): Promise<void> {
  await build({
    entryPoints: [fileURLToPath(new URL('../../src/main/services/slowlog-worker.ts', import.meta.url))],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'error',
  });
}
