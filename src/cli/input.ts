// Shared CLI input helpers: reading FILE or standard input, and filling a DSN's password from the environment.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AdvisorError } from '../shared/errors.js';
import type { CliIo } from './io.js';

/** Read FILE, or standard input for `-` or no FILE. */
export async function readInput(file: string | undefined, io: CliIo, what = 'SQL file'): Promise<string> {
  if (file === undefined || file === '-') return io.readStdin();
  return readText(file, io, what);
}

/** Read a text file relative to the working directory, with a clear error. */
export async function readText(file: string, io: CliIo, what: string): Promise<string> {
  try {
    return await readFile(path.resolve(io.cwd, file), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new AdvisorError(
      'INVALID_INPUT',
      code === 'ENOENT' ? `${what} not found: ${file}` : `Cannot read ${what} ${file}: ${String(error)}`,
    );
  }
}

/** Put SARGABLE_PASSWORD into a DSN without one, so passwords need not appear in shell history. */
export function dsnWithPassword(dsn: string, io: CliIo): string {
  const password = io.env.SARGABLE_PASSWORD;
  if (!password) return dsn;
  try {
    const url = new URL(dsn);
    if (!url.password) url.password = encodeURIComponent(password);
    return url.toString();
  } catch {
    return dsn;
  }
}
