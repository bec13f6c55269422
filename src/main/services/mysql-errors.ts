// Maps mysql2 / socket errors to AdvisorError in one place, with a message that says what to do.

import { AdvisorError } from '../../shared/errors.js';

interface DriverError {
  code?: string;
  errno?: number;
  sqlState?: string;
  sqlMessage?: string;
  message?: string;
}

/** Where the failure happened, for the message ("127.0.0.1:3306"). */
export interface ErrorContext {
  host?: string;
  port?: number;
  user?: string;
  action?: string;
}

const PRIVILEGE_ERRORS = new Set([1044, 1142, 1143, 1227, 1370, 3550]);

/** Turn anything mysql2 throws into an AdvisorError (the original is kept as `cause`). */
export function mapMysqlError(error: unknown, context: ErrorContext = {}): AdvisorError {
  if (error instanceof AdvisorError) return error;
  const driver = (error ?? {}) as DriverError;
  const where = context.host ? `${context.host}:${context.port ?? 3306}` : 'the server';
  const serverText = driver.sqlMessage ?? driver.message ?? String(error);
  const details = {
    ...(driver.errno && driver.sqlState ? { serverCode: driver.errno, sqlState: driver.sqlState } : {}),
  };
  const options = { cause: error };
  switch (driver.code) {
    case 'ECONNREFUSED':
      return new AdvisorError(
        'CONNECTION_FAILED',
        `Cannot connect to ${where}: connection refused.`,
        {
          hint: 'Check that the server is running and listening on that host and port.',
        },
        options,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new AdvisorError(
        'CONNECTION_FAILED',
        `Cannot resolve host ${context.host ?? ''}.`,
        { hint: 'Check the host name.' },
        options,
      );
    case 'ETIMEDOUT':
      return new AdvisorError(
        'TIMEOUT',
        `Connecting to ${where} timed out.`,
        {
          hint: 'Check the host, port, firewall or SSH tunnel; the connect timeout is 10 s by default.',
        },
        options,
      );
    case 'PROTOCOL_CONNECTION_LOST':
    case 'ECONNRESET':
    case 'EPIPE':
      return new AdvisorError(
        'CONNECTION_LOST',
        `The connection to ${where} was lost.`,
        {
          hint: 'The server may have restarted or closed an idle connection. Reconnect and try again.',
        },
        options,
      );
    default:
      break;
  }
  if (driver.errno === 1045 || driver.errno === 1698) {
    return new AdvisorError(
      'AUTH_FAILED',
      `Access denied for ${context.user ?? 'this user'} at ${where}: ${serverText}`,
      {
        ...details,
        hint: 'Check the user name and password, and that the account may connect from this host.',
      },
      options,
    );
  }
  if (driver.errno === 1049) {
    return new AdvisorError(
      'NOT_FOUND',
      `${serverText} (at ${where}).`,
      { ...details, hint: 'Check the database name, or leave it empty.' },
      options,
    );
  }
  if (driver.errno !== undefined && PRIVILEGE_ERRORS.has(driver.errno)) {
    return new AdvisorError(
      'PRIVILEGE_MISSING',
      serverText,
      {
        ...details,
        hint: 'The account lacks a privilege for this; ask a DBA to GRANT it (the message names it).',
      },
      options,
    );
  }
  if (driver.errno === 3024 || driver.errno === 1969 || driver.errno === 1317) {
    return new AdvisorError(
      'TIMEOUT',
      serverText,
      { ...details, hint: 'The statement hit its time limit.' },
      options,
    );
  }
  if (driver.errno !== undefined) {
    return new AdvisorError('SERVER_ERROR', serverText, details, options);
  }
  return new AdvisorError(
    'CONNECTION_FAILED',
    `${context.action ?? 'Connecting'} to ${where} failed: ${serverText}`,
    {},
    options,
  );
}
