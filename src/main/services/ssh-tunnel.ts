// In-process SSH tunnel (`ssh -L` style) with ssh2: each MySQL connection rides a direct-tcpip channel.
/*
 * Design note.
 * - No local listening port: each MySQL connection asks for a fresh `direct-tcpip` channel
 *   (`forwardOut`) and hands it to mysql2 as its `stream`. Nothing else on the machine can use the
 *   tunnel, and mysql2 still sees the real server host name, so TLS "verify identity" checks the
 *   server's certificate against that name, not 127.0.0.1.
 * - One SSH client per tunnel, connected lazily and shared by all channels; when it closes (network
 *   drop, sshd restart) the next `openStream()` connects again, so reconnect.ts heals both layers.
 * - Authentication: a private key file (optionally with a passphrase) or the SSH agent at
 *   `SSH_AUTH_SOCK`. The host key is pinned by its SHA256 fingerprint when the profile has one; a
 *   mismatch refuses the connection. Without a pin the key is accepted and reported (the test
 *   connection result shows it so the user can pin it).
 * - Errors name the SSH hop and say what to do: authentication, unreachable host, timeout,
 *   host key mismatch, channel refused by the server (AllowTcpForwarding / wrong MySQL address).
 */

import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import type { Duplex } from 'node:stream';
import { Client, type ConnectConfig } from 'ssh2';
import { AdvisorError } from '../../shared/errors.js';
import type { StreamOpener } from './connection.js';

/** Settings for one SSH hop. */
export interface SshTunnelOptions {
  host: string;
  port: number;
  user: string;
  auth: 'key' | 'agent';
  /** Private key file (auth: 'key'). */
  keyFile?: string;
  /** Passphrase of the key file, from the secret store or asked now; never logged. */
  passphrase?: string;
  /** Agent socket (auth: 'agent'); default `SSH_AUTH_SOCK`. */
  agentSocket?: string;
  /** Pinned host key fingerprint, `SHA256:<base64>` as `ssh-keygen -lf` prints it. */
  hostKeyFingerprint?: string;
  /** SSH handshake timeout; default 10 s. */
  readyTimeoutMs?: number;
}

/** An open tunnel factory plus what the handshake learned. */
export interface SshTunnel extends StreamOpener {
  /** The server's host key fingerprint once connected (`SHA256:…`). */
  hostKeyFingerprint(): string | undefined;
}

/** `SHA256:<base64 without padding>` of a raw public host key, like OpenSSH prints it. */
export function fingerprintOf(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

function sshError(options: SshTunnelOptions, error: unknown, hostKey: { mismatch?: string }): AdvisorError {
  const where = `SSH ${options.user}@${options.host}:${options.port}`;
  const driver = (error ?? {}) as { code?: string; level?: string; message?: string };
  const message = driver.message ?? String(error);
  const cause = { cause: error };
  if (hostKey.mismatch) {
    return new AdvisorError(
      'CONNECTION_FAILED',
      `${where}: the host key changed (expected ${options.hostKeyFingerprint ?? '?'}, got ${hostKey.mismatch}).`,
      {
        hint: 'If the server was reinstalled, check the new fingerprint with its administrator and update the profile; otherwise someone may be intercepting the connection.',
      },
      cause,
    );
  }
  if (driver.level === 'client-authentication') {
    return new AdvisorError(
      'AUTH_FAILED',
      `${where}: authentication failed (${options.auth === 'agent' ? 'SSH agent' : 'key file'}).`,
      {
        hint:
          options.auth === 'agent'
            ? 'Check that the agent holds a key this server accepts (ssh-add -l).'
            : 'Check the key file, its passphrase, and that the public key is in authorized_keys on the server.',
      },
      cause,
    );
  }
  if (driver.code === 'ECONNREFUSED' || driver.code === 'EHOSTUNREACH' || driver.code === 'ENETUNREACH') {
    return new AdvisorError(
      'CONNECTION_FAILED',
      `${where}: host unreachable (${driver.code}).`,
      { hint: 'Check the SSH host and port, and that sshd is running.' },
      cause,
    );
  }
  if (driver.code === 'ENOTFOUND' || driver.code === 'EAI_AGAIN') {
    return new AdvisorError(
      'CONNECTION_FAILED',
      `${where}: cannot resolve the host name.`,
      { hint: 'Check the SSH host name.' },
      cause,
    );
  }
  if (driver.level === 'client-timeout' || driver.code === 'ETIMEDOUT') {
    return new AdvisorError(
      'TIMEOUT',
      `${where}: the SSH handshake timed out.`,
      { hint: 'Check the host, port and firewall.' },
      cause,
    );
  }
  return new AdvisorError('CONNECTION_FAILED', `${where}: ${message}`, {}, cause);
}

async function authConfig(options: SshTunnelOptions): Promise<Partial<ConnectConfig>> {
  if (options.auth === 'agent') {
    const agent = options.agentSocket ?? process.env.SSH_AUTH_SOCK;
    if (!agent) {
      throw new AdvisorError('INVALID_INPUT', 'No SSH agent is running (SSH_AUTH_SOCK is not set).', {
        hint: 'Start ssh-agent and ssh-add your key, or choose a key file in the profile.',
      });
    }
    return { agent };
  }
  if (!options.keyFile) {
    throw new AdvisorError('INVALID_INPUT', 'The SSH tunnel needs a private key file or the SSH agent.');
  }
  let privateKey: Buffer;
  try {
    privateKey = await fs.readFile(options.keyFile);
  } catch (error) {
    throw new AdvisorError(
      'INVALID_INPUT',
      `Cannot read the SSH key file ${options.keyFile}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`,
      { hint: 'Check the path and that the file is readable by you.' },
      { cause: error },
    );
  }
  return { privateKey, ...(options.passphrase ? { passphrase: options.passphrase } : {}) };
}

/**
 * A tunnel to `remote` (the MySQL host and port as seen from the SSH server). Nothing connects
 * until the first `openStream()`.
 */
export function createSshTunnel(
  options: SshTunnelOptions,
  remote: { host: string; port: number },
): SshTunnel {
  let client: Client | undefined;
  let ready: Promise<Client> | undefined;
  let fingerprint: string | undefined;
  let closed = false;

  function connectClient(): Promise<Client> {
    const hostKey: { mismatch?: string } = {};
    const next = new Client();
    return authConfig(options).then(
      (auth) =>
        new Promise<Client>((resolve, reject) => {
          let settled = false;
          next.on('ready', () => {
            settled = true;
            resolve(next);
          });
          next.on('error', (error) => {
            if (!settled) {
              settled = true;
              reject(sshError(options, error, hostKey));
            }
          });
          next.on('close', () => {
            if (client === next) {
              client = undefined;
              ready = undefined;
            }
            if (!settled) {
              settled = true;
              reject(sshError(options, new Error('connection closed during the handshake'), hostKey));
            }
          });
          next.connect({
            host: options.host,
            port: options.port,
            username: options.user,
            readyTimeout: options.readyTimeoutMs ?? 10_000,
            keepaliveInterval: 15_000,
            hostVerifier: (key: Buffer) => {
              const seen = fingerprintOf(key);
              fingerprint = seen;
              if (options.hostKeyFingerprint && options.hostKeyFingerprint !== seen) {
                hostKey.mismatch = seen;
                return false;
              }
              return true;
            },
            ...auth,
          });
        }),
    );
  }

  function getClient(): Promise<Client> {
    if (closed)
      return Promise.reject(new AdvisorError('NOT_FOUND', 'This SSH tunnel is closed. Connect again.'));
    // Concurrent callers share one handshake; a failed one is forgotten so the next call retries.
    ready ??= connectClient().then(
      (connected) => {
        client = connected;
        return connected;
      },
      (error: unknown) => {
        ready = undefined;
        throw error;
      },
    );
    return ready;
  }

  return {
    hostKeyFingerprint: () => fingerprint,
    async openStream(): Promise<Duplex> {
      const ssh = await getClient();
      return new Promise<Duplex>((resolve, reject) => {
        ssh.forwardOut('127.0.0.1', 0, remote.host, remote.port, (error, channel) => {
          if (error) {
            reject(
              new AdvisorError(
                'CONNECTION_FAILED',
                `SSH ${options.host}: the server refused to forward to ${remote.host}:${remote.port} (${error.message}).`,
                {
                  hint: 'Check the MySQL host and port as seen from the SSH server, and that sshd allows TCP forwarding (AllowTcpForwarding).',
                },
                { cause: error },
              ),
            );
            return;
          }
          resolve(channel);
        });
      });
    },
    async close(): Promise<void> {
      closed = true;
      client?.end();
      client = undefined;
      ready = undefined;
    },
  };
}
