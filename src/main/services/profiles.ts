// Saved connection profiles: JSON in the user's config dir, secrets beside them in a SecretStore, test and connect.
/*
 * Design note.
 * - profiles.json holds settings only (host, user, TLS file paths, SSH hop, flags). Passwords and key
 *   passphrases live in a SecretStore (secrets.ts) keyed by profile id; replies carry `hasPassword`
 *   and `hasSshPassphrase`, never the values. Writes are atomic (temp file + fsync + rename) and
 *   owner-only (0600 in a 0700 dir).
 * - TLS modes map onto mysql2's `ssl` options: required = encrypt without checks; verify-ca = the
 *   chain must lead to the CA file (or the system CAs); verify-identity = also the host name. CA,
 *   cert and key files are read at connect time, so a renewed certificate needs no profile edit.
 * - The test connection opens the same read-only session as a real connect, then reads the TLS
 *   cipher from the session status and the account's grants (SHOW GRANTS) and checks them against
 *   what each feature runs, with the GRANT that would fix each gap.
 */

import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RowDataPacket, SslOptions } from 'mysql2/promise';
import {
  profileInputSchema,
  type ConnectionTestResult,
  type Profile,
  type ProfileInput,
  type ProfileView,
  type SecretStorageInfo,
} from '../../shared/api/profiles.js';
import type { OpenResult } from '../../shared/api.js';
import { AdvisorError } from '../../shared/errors.js';
import {
  connect,
  DEFAULT_CONNECT_TIMEOUT_MS,
  type ConnectionService,
  type ConnectionTarget,
} from './connection.js';
import { mapMysqlError } from './mysql-errors.js';
import { secretKeys, writeFileAtomic, type SecretStore } from './secrets.js';
import { detectServerInfo } from './server-info.js';
import { checkPrivileges, hasRoleGrants, parseGrants, quoteAccount } from './privileges.js';
import { createSshTunnel, type SshTunnel } from './ssh-tunnel.js';

// The grant checks moved to privileges.ts; re-exported for the callers that import them from here.
export {
  checkPrivileges,
  hasPrivilege,
  hasRoleGrants,
  parseGrants,
  quoteAccount,
  type Grant,
} from './privileges.js';

/** `$XDG_CONFIG_HOME/sargable` (default `~/.config/sargable`); Electron passes its userData dir instead. */
export function defaultConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME)
      ? env.XDG_CONFIG_HOME
      : path.join(os.homedir(), '.config');
  return path.join(base, 'sargable');
}

interface ProfilesFile {
  version: 1;
  profiles: Profile[];
}

/** profiles.json: read whole, write whole, atomically. */
export class ProfileStore {
  constructor(readonly file: string) {}

  async list(): Promise<Profile[]> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    let parsed: Partial<ProfilesFile>;
    try {
      parsed = JSON.parse(text) as Partial<ProfilesFile>;
    } catch (error) {
      throw new AdvisorError(
        'PARSE_FAILED',
        `The profiles file ${this.file} is not valid JSON.`,
        { hint: 'Fix or remove the file; Sargable rewrites it on the next save.' },
        { cause: error },
      );
    }
    return Array.isArray(parsed.profiles) ? parsed.profiles : [];
  }

  async get(id: string): Promise<Profile> {
    const profile = (await this.list()).find((candidate) => candidate.id === id);
    if (!profile) throw new AdvisorError('NOT_FOUND', 'This connection profile no longer exists.');
    return profile;
  }

  /** Validate, assign an id when new, and write. */
  async save(input: ProfileInput, now = new Date()): Promise<Profile> {
    const parsed = profileInputSchema.safeParse(input);
    if (!parsed.success) {
      throw new AdvisorError(
        'INVALID_INPUT',
        `Invalid profile: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'value'}: ${issue.message}`).join('; ')}`,
      );
    }
    const value = parsed.data;
    const profiles = await this.list();
    const index = value.id ? profiles.findIndex((candidate) => candidate.id === value.id) : -1;
    if (value.id && index < 0)
      throw new AdvisorError('NOT_FOUND', 'This connection profile no longer exists.');
    const existing = index >= 0 ? profiles[index] : undefined;
    const profile: Profile = {
      ...value,
      id: existing?.id ?? randomUUID(),
      createdAt: existing?.createdAt ?? now.toISOString(),
      updatedAt: now.toISOString(),
    };
    if (index >= 0) profiles[index] = profile;
    else profiles.push(profile);
    await this.write(profiles);
    return profile;
  }

  async delete(id: string): Promise<boolean> {
    const profiles = await this.list();
    const rest = profiles.filter((profile) => profile.id !== id);
    if (rest.length === profiles.length) return false;
    await this.write(rest);
    return true;
  }

  private async write(profiles: Profile[]): Promise<void> {
    const data: ProfilesFile = { version: 1, profiles };
    await writeFileAtomic(this.file, `${JSON.stringify(data, null, 2)}\n`);
  }
}

async function readPem(file: string, what: string): Promise<Buffer> {
  try {
    return await fs.readFile(file);
  } catch (error) {
    throw new AdvisorError(
      'INVALID_INPUT',
      `Cannot read the TLS ${what} file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`,
      { hint: 'Check the path in the profile and that the file is readable by you.' },
      { cause: error },
    );
  }
}

/** mysql2 `ssl` options for a profile's TLS settings (files are read now); undefined when disabled. */
export async function sslOptionsFor(tls: Profile['tls']): Promise<SslOptions | undefined> {
  if (tls.mode === 'disabled') return undefined;
  const files: SslOptions = {
    ...(tls.caFile ? { ca: await readPem(tls.caFile, 'CA') } : {}),
    ...(tls.certFile ? { cert: await readPem(tls.certFile, 'certificate') } : {}),
    ...(tls.keyFile ? { key: await readPem(tls.keyFile, 'key') } : {}),
  };
  if (tls.mode === 'required') return { ...files, rejectUnauthorized: false };
  return { ...files, rejectUnauthorized: true, verifyIdentity: tls.mode === 'verify-identity' };
}

/** Secrets for one connect: from the request, else from the store. Never logged. */
export interface ProfileSecrets {
  password?: string | undefined;
  sshPassphrase?: string | undefined;
}

/** A connection target for a profile (TLS files read, SSH tunnel prepared but not yet connected). */
export async function profileTarget(
  profile: Profile,
  secrets: ProfileSecrets,
): Promise<ConnectionTarget & { tunnel?: SshTunnel }> {
  const ssl = await sslOptionsFor(profile.tls);
  const tunnel = profile.ssh
    ? createSshTunnel(
        {
          host: profile.ssh.host,
          port: profile.ssh.port,
          user: profile.ssh.user,
          auth: profile.ssh.auth,
          ...(profile.ssh.keyFile ? { keyFile: profile.ssh.keyFile } : {}),
          ...(secrets.sshPassphrase ? { passphrase: secrets.sshPassphrase } : {}),
          ...(profile.ssh.hostKeyFingerprint ? { hostKeyFingerprint: profile.ssh.hostKeyFingerprint } : {}),
        },
        { host: profile.host, port: profile.port },
      )
    : undefined;
  const database = profile.database || undefined;
  return {
    host: profile.host,
    port: profile.port,
    user: profile.user,
    password: secrets.password ?? '',
    database,
    tls: profile.tls.mode === 'disabled' ? 'off' : profile.tls.mode === 'required' ? 'required' : 'verify',
    connectTimeoutMs: profile.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    label: `${profile.name} (${profile.user}@${profile.host}:${profile.port}${database ? `/${database}` : ''}${profile.ssh ? ` via ${profile.ssh.host}` : ''})`,
    allowWhatIf: profile.allowWhatIf,
    profile: profile.name,
    ...(profile.production ? { production: { name: profile.name } } : {}),
    ...(ssl ? { ssl } : {}),
    ...(tunnel ? { tunnel } : {}),
  };
}

/**
 * Connect once as a read-only session, read version, TLS and grants, and disconnect. The same
 * checks as a real connect, so "test passed" means "connect will work".
 */
export async function testConnection(
  target: ConnectionTarget & { tunnel?: SshTunnel },
  options: { allowWhatIf: boolean },
): Promise<ConnectionTestResult> {
  const connection = await connect(target, { readOnly: true });
  const context = { host: target.host, port: target.port, user: target.user };
  try {
    const started = performance.now();
    await connection.query('SELECT 1');
    const latencyMs = Math.round((performance.now() - started) * 10) / 10;
    const server = await detectServerInfo(connection);
    const [status] = await connection.query<RowDataPacket[]>(
      "SHOW SESSION STATUS WHERE Variable_name IN ('Ssl_cipher', 'Ssl_version')",
    );
    const statusMap = new Map(status.map((row) => [String(row.Variable_name), String(row.Value ?? '')]));
    const cipher = statusMap.get('Ssl_cipher') ?? '';
    const [userRows] = await connection.query<RowDataPacket[]>('SELECT CURRENT_USER() AS account');
    const account = String(userRows[0]?.account ?? `${target.user}@%`);
    const [grantRows] = await connection.query<RowDataPacket[]>('SHOW GRANTS');
    // Rows have one column whose name contains the account; MariaDB lines can carry a password hash.
    const lines = grantRows.map((row) =>
      String(Object.values(row)[0] ?? '').replace(/IDENTIFIED BY PASSWORD '[^']*'/gi, ''),
    );
    const grants = parseGrants(lines);
    const notes: string[] = [];
    if (hasRoleGrants(lines)) {
      notes.push('The account has roles; privileges that come only from roles are not counted here.');
    }
    if (!server.capabilities.performanceSchema) {
      notes.push(
        'performance_schema is OFF on this server: top queries and metadata locks need it ON (a restart with --performance-schema=ON).',
      );
    }
    return {
      ok: true,
      server,
      latencyMs,
      tls: cipher ? { cipher, version: statusMap.get('Ssl_version') ?? '' } : null,
      account,
      via: target.tunnel ? 'ssh' : 'direct',
      ...(target.tunnel?.hostKeyFingerprint()
        ? { sshHostKeyFingerprint: target.tunnel.hostKeyFingerprint()! }
        : {}),
      privileges: checkPrivileges(grants, server, {
        database: target.database,
        allowWhatIf: options.allowWhatIf,
        account: quoteAccount(account),
      }),
      notes,
    };
  } catch (error) {
    throw mapMysqlError(error, { ...context, action: 'Testing the connection' });
  } finally {
    await connection.end().catch(() => undefined);
  }
}

/** Profiles, their secrets and connecting through them; the `profiles.*` handlers call this. */
export class ProfileService {
  constructor(
    readonly store: ProfileStore,
    readonly secrets: SecretStore,
    private readonly connections: ConnectionService,
  ) {}

  secretStorage(): SecretStorageInfo {
    const reason = this.secrets.reason();
    return this.secrets.available()
      ? { available: true }
      : { available: false, ...(reason ? { reason } : {}) };
  }

  async view(profile: Profile): Promise<ProfileView> {
    return {
      ...profile,
      hasPassword: await this.secrets.has(secretKeys.password(profile.id)),
      hasSshPassphrase: await this.secrets.has(secretKeys.sshPassphrase(profile.id)),
    };
  }

  async list(): Promise<{ profiles: ProfileView[]; secrets: SecretStorageInfo }> {
    const profiles = await this.store.list();
    return {
      profiles: await Promise.all(profiles.map((profile) => this.view(profile))),
      secrets: this.secretStorage(),
    };
  }

  async save(request: {
    profile: ProfileInput;
    password?: string | undefined;
    forgetPassword?: boolean | undefined;
    sshPassphrase?: string | undefined;
    forgetSshPassphrase?: boolean | undefined;
  }): Promise<{ profile: ProfileView; passwordStored: boolean; reason?: string }> {
    const profile = await this.store.save(request.profile);
    const passwordKey = secretKeys.password(profile.id);
    const passphraseKey = secretKeys.sshPassphrase(profile.id);
    if (request.forgetPassword) await this.secrets.delete(passwordKey);
    if (request.forgetSshPassphrase) await this.secrets.delete(passphraseKey);
    let refused = false;
    if (request.password !== undefined)
      refused = !(await this.secrets.set(passwordKey, request.password)) || refused;
    if (request.sshPassphrase !== undefined) {
      refused = !(await this.secrets.set(passphraseKey, request.sshPassphrase)) || refused;
    }
    const view = await this.view(profile);
    const reason = this.secrets.reason();
    return {
      profile: view,
      passwordStored: view.hasPassword,
      ...(refused && reason ? { reason } : {}),
    };
  }

  async delete(id: string): Promise<void> {
    const removed = await this.store.delete(id);
    await this.secrets.delete(secretKeys.password(id));
    await this.secrets.delete(secretKeys.sshPassphrase(id));
    if (!removed) throw new AdvisorError('NOT_FOUND', 'This connection profile no longer exists.');
  }

  private async secretsFor(profile: Profile, given: ProfileSecrets): Promise<ProfileSecrets> {
    const password = given.password ?? (await this.secrets.get(secretKeys.password(profile.id)));
    if (password === undefined) {
      const reason = this.secrets.reason();
      throw new AdvisorError('AUTH_FAILED', `Enter the password for ${profile.user}@${profile.host}.`, {
        hint:
          reason ??
          'No password is saved for this profile; enter it (an empty one is allowed) or save it with the profile.',
      });
    }
    const sshPassphrase =
      given.sshPassphrase ??
      (profile.ssh ? await this.secrets.get(secretKeys.sshPassphrase(profile.id)) : undefined);
    return { password, ...(sshPassphrase !== undefined ? { sshPassphrase } : {}) };
  }

  async test(request: {
    id?: string | undefined;
    profile?: ProfileInput | undefined;
    password?: string | undefined;
    sshPassphrase?: string | undefined;
  }): Promise<ConnectionTestResult> {
    let profile: Profile;
    if (request.profile) {
      const parsed = profileInputSchema.safeParse(request.profile);
      if (!parsed.success)
        throw new AdvisorError('INVALID_INPUT', `Invalid profile: ${parsed.error.issues[0]?.message ?? ''}`);
      const now = new Date().toISOString();
      profile = {
        ...parsed.data,
        id: request.id ?? parsed.data.id ?? 'unsaved',
        createdAt: now,
        updatedAt: now,
      };
    } else {
      profile = await this.store.get(request.id!);
    }
    // A saved profile uses its stored secrets unless new ones are given; unsaved settings use what is given.
    const secrets = request.id
      ? await this.secretsFor(profile, request)
      : {
          password: request.password ?? '',
          ...(request.sshPassphrase ? { sshPassphrase: request.sshPassphrase } : {}),
        };
    const target = await profileTarget(profile, secrets);
    try {
      return await testConnection(target, { allowWhatIf: profile.allowWhatIf });
    } finally {
      await target.tunnel?.close();
    }
  }

  async connect(request: {
    id: string;
    password?: string | undefined;
    sshPassphrase?: string | undefined;
  }): Promise<
    OpenResult & Pick<Profile, 'name' | 'color' | 'production' | 'allowWhatIf'> & { profileId: string }
  > {
    const profile = await this.store.get(request.id);
    const target = await profileTarget(profile, await this.secretsFor(profile, request));
    const opened = await this.connections.openTarget(target);
    return {
      ...opened,
      profileId: profile.id,
      name: profile.name,
      color: profile.color,
      production: profile.production,
      allowWhatIf: profile.allowWhatIf,
    };
  }
}
