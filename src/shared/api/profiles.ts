// API area: saved connection profiles (list, save, delete, test, connect). Secrets go in, never come out.

import { z } from 'zod';
import type { ServerInfo } from '../../core/model/server-info.js';

/** Color tags a profile can carry (the sidebar and status bar show them). */
export const profileColors = ['none', 'red', 'orange', 'yellow', 'green', 'blue', 'purple', 'gray'] as const;

/** TLS: disabled, required (encrypt, no certificate check), verify CA, verify CA and host name. */
export const tlsModes = ['disabled', 'required', 'verify-ca', 'verify-identity'] as const;

export const profileTlsSchema = z.object({
  mode: z.enum(tlsModes).default('disabled'),
  /** PEM files on this machine; read at connect time. */
  caFile: z.string().min(1).optional(),
  certFile: z.string().min(1).optional(),
  keyFile: z.string().min(1).optional(),
});

export const profileSshSchema = z.object({
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535).default(22),
  user: z.string().min(1),
  auth: z.enum(['key', 'agent']),
  keyFile: z.string().min(1).optional(),
  /** Pinned host key (`SHA256:…`); profiles.test reports the one it saw. */
  hostKeyFingerprint: z
    .string()
    .regex(/^SHA256:[A-Za-z0-9+/]{43}$/)
    .optional(),
});

/** What the user edits. No secrets here: passwords and passphrases travel beside it. */
export const profileInputSchema = z.object({
  /** Present when updating an existing profile. */
  id: z.string().min(1).optional(),
  name: z.string().trim().min(1).max(100),
  color: z.enum(profileColors).default('none'),
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535).default(3306),
  user: z.string().min(1),
  /** Default schema. */
  database: z.string().optional(),
  tls: profileTlsSchema.default({ mode: 'disabled' }),
  ssh: profileSshSchema.optional(),
  /** Sandbox: what-if indexes may be built here. */
  allowWhatIf: z.boolean().default(false),
  /** Production: the UI adds confirmations. */
  production: z.boolean().default(false),
  /** Connect timeout in ms. */
  connectTimeoutMs: z.number().int().positive().optional(),
});
export type ProfileInput = z.input<typeof profileInputSchema>;
export type Profile = z.output<typeof profileInputSchema> & {
  id: string;
  createdAt: string;
  updatedAt: string;
};

/** A profile as the renderer sees it: flags for the secrets, never the secrets. */
export interface ProfileView extends Profile {
  hasPassword: boolean;
  hasSshPassphrase: boolean;
}

/** Whether passwords can be saved on this machine, and why not. */
export interface SecretStorageInfo {
  available: boolean;
  reason?: string;
}

const secret = z.string().max(4096);

/**
 * On a production profile, every write request carries what the user typed to confirm it (the
 * profile's name); the handler refuses the write without it (src/main/services/production-guard.ts).
 */
export const productionConfirmationField = z.string().max(200).optional();

const saveSchema = z.object({
  profile: profileInputSchema,
  /** Save this password (when secret storage is available). Omit to keep the stored one. */
  password: secret.optional(),
  /** Forget the stored password. */
  forgetPassword: z.boolean().optional(),
  sshPassphrase: secret.optional(),
  forgetSshPassphrase: z.boolean().optional(),
});

const idSchema = z.object({ id: z.string().min(1) });

const testSchema = z
  .object({
    /** A saved profile (its stored secrets are used unless given here)… */
    id: z.string().min(1).optional(),
    /** …or unsaved settings from the form. */
    profile: profileInputSchema.optional(),
    password: secret.optional(),
    sshPassphrase: secret.optional(),
  })
  .refine((value) => value.id !== undefined || value.profile !== undefined, {
    message: 'give a profile id or profile settings',
  });

const connectSchema = z.object({
  id: z.string().min(1),
  /** Use this password now (not stored) instead of the stored one. */
  password: secret.optional(),
  sshPassphrase: secret.optional(),
});

/** One feature's privileges: what it needs, what is missing, and the GRANTs that fix it. */
export interface FeaturePrivileges {
  feature: 'advisor' | 'explain' | 'locks' | 'digests' | 'slowLogTable' | 'slowLogWindow' | 'kill' | 'whatIf';
  /** Short label, e.g. "Locks (INNODB_TRX, data_locks)". */
  label: string;
  ok: boolean;
  /** Missing privileges, e.g. `PROCESS`, `SELECT ON performance_schema.*`. */
  missing: string[];
  /** Statements a DBA can run to fix it. */
  grants: string[];
}

/** The result of profiles.test: what the server is and what this account may do there. */
export interface ConnectionTestResult {
  ok: true;
  server: ServerInfo;
  /** Round trip of `SELECT 1` after connecting. */
  latencyMs: number;
  /** TLS in use: cipher and protocol from the session status, or null when unencrypted. */
  tls: { cipher: string; version: string } | null;
  /** The account as the server sees it (`CURRENT_USER()`). */
  account: string;
  via: 'direct' | 'ssh';
  /** The SSH server's host key, to pin in the profile. */
  sshHostKeyFingerprint?: string;
  privileges: FeaturePrivileges[];
  /** Things the checker could not tell (e.g. privileges that come from roles). */
  notes: string[];
}

export const profilesSchemas = {
  'profiles.list': z.object({}).optional(),
  'profiles.save': saveSchema,
  'profiles.delete': idSchema,
  'profiles.test': testSchema,
  'profiles.connect': connectSchema,
} as const;

export interface ProfilesApi {
  /** Saved profiles (with `hasPassword` flags) and whether secrets can be stored here. */
  'profiles.list'(
    request?: Record<string, never>,
  ): Promise<{ profiles: ProfileView[]; secrets: SecretStorageInfo }>;
  /** Create or update a profile; `passwordStored` says whether the password was kept, `reason` why not. */
  'profiles.save'(
    request: z.input<typeof saveSchema>,
  ): Promise<{ profile: ProfileView; passwordStored: boolean; reason?: string }>;
  /** Delete a profile and its stored secrets. */
  'profiles.delete'(request: z.input<typeof idSchema>): Promise<void>;
  /** Connect once, report version, flavor, TLS, privileges, then disconnect. */
  'profiles.test'(request: z.input<typeof testSchema>): Promise<ConnectionTestResult>;
  /** Open a read-only analysis session from a saved profile. */
  'profiles.connect'(request: z.input<typeof connectSchema>): Promise<
    {
      connectionId: string;
      server: ServerInfo;
      label: string;
      /** What Sargable did on connect that the user must know (as `connection.open`'s notices). */
      notices?: string[];
    } & Pick<Profile, 'name' | 'color' | 'production' | 'allowWhatIf'> & { profileId: string }
  >;
}
