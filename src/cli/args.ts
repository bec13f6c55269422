// Tiny argv parsing on top of node:util parseArgs, with usage errors (exit 2) instead of exceptions.

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError, type CliIo } from './io.js';

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

/** The options every reporting command takes: `--format text|json` and `-h, --help`. */
const COMMON_OPTIONS = {
  format: { type: 'string', default: 'text' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type OutputFormat = 'text' | 'json';

/**
 * Parse a command's own options plus the common `--format` and `--help`. Prints `usage` and returns
 * undefined for `--help` (the command then exits 0); a `--format` other than text or json is a usage error.
 */
export function parseCommonArgs<T extends NonNullable<ParseArgsConfig['options']>>(
  argv: readonly string[],
  options: T,
  command: { io: CliIo; usage: string },
) {
  const { values, positionals } = parseCommandArgs(argv, { ...options, ...COMMON_OPTIONS });
  // The common options' types, which TypeScript cannot read off the generic result.
  const common = values as { help?: boolean; format?: string };
  if (common.help) {
    command.io.stdout(`${command.usage}\n`);
    return undefined;
  }
  const format = common.format;
  if (format !== 'text' && format !== 'json')
    throw new UsageError(`--format must be text or json, not '${String(format)}'`);
  return { values, positionals, format: format as OutputFormat };
}
