// Entry of the bundled CLI (dist/cli/sargable.cjs).
import { processIo, runCli } from './main.js';

void runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
