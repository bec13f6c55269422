// Error codes and the error type every face (UI, CLI, web bridge) shows to users.

/** Closed list of error codes. Never reuse a code for another meaning. */
export const errorCodes = [
  'AUTH_FAILED',
  'CONNECTION_FAILED',
  'CONNECTION_LOST',
  'TIMEOUT',
  'PRIVILEGE_MISSING',
  'PARSE_FAILED',
  /** A statement beyond the documented limits of nesting (docs/parsing.md, "Limits"). */
  'INPUT_TOO_COMPLEX',
  /** An input larger than a documented size limit (docs/parsing.md, "Limits"). */
  'INPUT_TOO_LARGE',
  'SERVER_ERROR',
  'NOT_FOUND',
  'INVALID_INPUT',
  'UNSUPPORTED',
  'CANCELLED',
  'CONSENT_REQUIRED',
  /** The request names a file the user did not choose (docs/security.md, "Files"). */
  'FORBIDDEN',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** What crosses IPC/HTTP: plain data, never an Error instance (Electron keeps only `message`). */
export interface WireError {
  code: ErrorCode;
  message: string;
  /** The server's error number and SQLSTATE when the server raised it. */
  serverCode?: number;
  sqlState?: string;
  /** What the user can do about it. */
  hint?: string;
}

/** An error with a stable code and a message that says what to do. */
export class AdvisorError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly userMessage: string,
    readonly details: Omit<WireError, 'code' | 'message'> = {},
    options?: ErrorOptions,
  ) {
    super(`${code}: ${userMessage}`, options);
    this.name = 'AdvisorError';
  }

  toWire(): WireError {
    return { code: this.code, message: this.userMessage, ...this.details };
  }

  static fromWire(wire: WireError): AdvisorError {
    const { code, message, ...details } = wire;
    return new AdvisorError(code, message, details);
  }
}

/** Turn anything thrown into a WireError without leaking stack traces or secrets. */
export function toWireError(error: unknown): WireError {
  if (error instanceof AdvisorError) return error.toWire();
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'INTERNAL', message };
}
