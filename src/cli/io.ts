// The CLI's view of the outside world, so commands can be tested without a process.

/** Connection credentials from a safe source (password file, prompt, login path, environment). */
export interface Credentials {
  password?: string;
  /** Where the password came from, for messages (never the password). */
  passwordSource?: string;
  user?: string;
  host?: string;
  port?: number;
  socket?: string;
}

/** Streams and helpers a command gets; exit codes: 0 ran, 1 a finding reached --fail-on, 2 usage/input error. */
export interface CliIo {
  stdout(text: string): void;
  /**
   * Resolves once standard output has taken what was written so far (a pipe whose reader is
   * slower than us buffers every write in memory otherwise). Absent: nothing to wait for.
   */
  stdoutDrained?(): Promise<void>;
  stderr(text: string): void;
  /** Reads all of standard input (for `-`). */
  readStdin(): Promise<string>;
  /**
   * Standard input as raw chunks, for the paths that stream it (analyze's SQL, `--schema -`); absent
   * (tests): readStdin's text, as one chunk.
   */
  stdinChunks?(): AsyncIterable<Uint8Array>;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Prompt on the terminal without echo (--ask-password); absent when there is no terminal. */
  readPassword?(prompt: string): Promise<string>;
  /** What --password-file / --ask-password / --login-path / the environment resolved to (runCli sets it). */
  readonly credentials?: Credentials;
}

/** A CLI subcommand. Returns the process exit code. */
export type CliCommand = (argv: readonly string[], io: CliIo) => Promise<number>;

/** Thrown for usage and input errors (exit 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}
