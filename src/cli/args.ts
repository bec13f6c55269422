// Tiny argv parsing on top of node:util parseArgs, with usage errors (exit 2) instead of exceptions.

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './io.js';

/** Parse options strictly; unknown flags are usage errors naming the flag. */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig['options']>>(
  argv: readonly string[],
  options: T,
) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(
      error instanceof Error ? error.message.replace(/^TypeError \[[A-Z_]+\]: /, '') : String(error),
    );
  }
}
