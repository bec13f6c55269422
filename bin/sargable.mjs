#!/usr/bin/env node
// The `sargable` command: runs the bundled CLI (built by `npm install` via the prepare script, or `npm run build`).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'sargable.cjs');
if (!existsSync(cli)) {
  process.stderr.write("sargable: the CLI is not built yet. Run 'npm run build' in the project first.\n");
  process.exit(2);
}
createRequire(import.meta.url)(cli);
