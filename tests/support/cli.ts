// Runs the CLI in process with captured output, as the CLI tests do.
import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';

/** `sargable ARGV` in `cwd`, with `stdin` and `env`: its exit code and everything it printed. */
export async function runCliCaptured(
  argv: string[],
  options: {
    cwd: string;
    stdin?: string;
    /** Standard input as chunks, for the paths that stream it (given `stdout` so far, to pace them). */
    stdinChunks?: (stdout: () => string) => AsyncIterable<Uint8Array>;
    env?: Record<string, string>;
    /** A terminal for --ask-password (absent: no terminal, as when stdin is a pipe). */
    readPassword?: (prompt: string) => Promise<string>;
  },
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    readStdin: async () => options.stdin ?? '',
    ...(options.stdinChunks ? { stdinChunks: () => options.stdinChunks!(() => stdout) } : {}),
    env: options.env ?? {},
    cwd: options.cwd,
    ...(options.readPassword ? { readPassword: options.readPassword } : {}),
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}
