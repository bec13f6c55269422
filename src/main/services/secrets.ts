// Secret storage for profile passwords and SSH key passphrases: Electron safeStorage, or nothing at all.
/*
 * Design note.
 * - Secrets never go into profiles.json. With a usable OS keychain they are encrypted with
 *   Electron's `safeStorage` and kept, base64, in a separate `secrets.json` (0600, atomic writes);
 *   without one they are not stored anywhere and the app asks each time (`NoSecretStore`).
 * - Electron is injected (`SafeStorageLike`) so this module runs and is tested in plain Node.
 * - Linux without a secret service: `isEncryptionAvailable()` can still be true while
 *   `getSelectedStorageBackend()` returns `basic_text`, which encrypts with a hard-coded key
 *   (https://www.electronjs.org/docs/latest/api/safe-storage). That is not protection, so it
 *   counts as unavailable.
 * - Secret values are never logged and never returned over the API; callers only learn `has`.
 */

import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The part of Electron's `safeStorage` this module uses. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only in Electron; absent elsewhere. */
  getSelectedStorageBackend?(): string;
}

/** Where passwords and passphrases go. Keys look like `<profileId>:password`. */
export interface SecretStore {
  /** Whether secrets can be stored at all; when false, `set` does nothing and `reason` says why. */
  available(): boolean;
  /** Why secrets are not stored (shown to the user), when `available()` is false. */
  reason(): string | undefined;
  get(key: string): Promise<string | undefined>;
  /** Store a secret; returns false (and stores nothing) when the store is unavailable. */
  set(key: string, secret: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  has(key: string): Promise<boolean>;
}

/** Why a face without a keychain (web mode, tests) stores no secrets. */
export const NO_KEYCHAIN_REASON =
  'Web mode cannot reach the OS keychain, so passwords are not saved; you will be asked each time.';

/** Stores nothing; the app asks for the password each time. Used in web mode and without a keychain. */
export class NoSecretStore implements SecretStore {
  constructor(private readonly why: string) {}
  available(): boolean {
    return false;
  }
  reason(): string {
    return this.why;
  }
  async get(): Promise<undefined> {
    return undefined;
  }
  async set(): Promise<boolean> {
    return false;
  }
  async delete(): Promise<void> {}
  async has(): Promise<boolean> {
    return false;
  }
}

interface SecretsFile {
  version: 1;
  /** key → base64 of safeStorage.encryptString(secret) */
  secrets: Record<string, string>;
}

/** Electron safeStorage (OS keychain) backed store; ciphertext in a separate file. */
export class SafeStorageSecretStore implements SecretStore {
  constructor(
    private readonly safeStorage: SafeStorageLike,
    private readonly file: string,
  ) {}

  available(): boolean {
    return this.reason() === undefined;
  }

  reason(): string | undefined {
    if (!this.safeStorage.isEncryptionAvailable()) {
      return 'The OS keychain is not available, so passwords are not saved; you will be asked each time.';
    }
    if (this.safeStorage.getSelectedStorageBackend?.() === 'basic_text') {
      return 'No secret service (GNOME Keyring or KWallet) is running, so passwords are not saved; you will be asked each time.';
    }
    return undefined;
  }

  private async read(): Promise<SecretsFile> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, secrets: {} };
      throw error;
    }
    const parsed = JSON.parse(text) as Partial<SecretsFile>;
    return { version: 1, secrets: { ...(parsed.secrets ?? {}) } };
  }

  async get(key: string): Promise<string | undefined> {
    if (!this.available()) return undefined;
    const encoded = (await this.read()).secrets[key];
    if (encoded === undefined) return undefined;
    try {
      return this.safeStorage.decryptString(Buffer.from(encoded, 'base64'));
    } catch {
      // A keychain reset makes old ciphertext unreadable: treat it as not stored.
      return undefined;
    }
  }

  async set(key: string, secret: string): Promise<boolean> {
    if (!this.available()) return false;
    const data = await this.read();
    data.secrets[key] = this.safeStorage.encryptString(secret).toString('base64');
    await writeFileAtomic(this.file, `${JSON.stringify(data, null, 2)}\n`);
    return true;
  }

  async delete(key: string): Promise<void> {
    const data = await this.read();
    if (!(key in data.secrets)) return;
    delete data.secrets[key];
    await writeFileAtomic(this.file, `${JSON.stringify(data, null, 2)}\n`);
  }

  async has(key: string): Promise<boolean> {
    if (!this.available()) return false;
    return (await this.read()).secrets[key] !== undefined;
  }
}

/** Keys of the two secrets a profile can have. */
export const secretKeys = {
  password: (profileId: string) => `${profileId}:password`,
  sshPassphrase: (profileId: string) => `${profileId}:ssh-passphrase`,
};

/**
 * Make `dir` (the config dir: `~/.config/sargable` or Electron's userData) private: created 0700, and
 * an existing one that group or others can enter (made 0755 by an older version) tightened to 0700.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const mode = statSync(dir).mode & 0o777;
  if ((mode & 0o077) !== 0) chmodSync(dir, mode & 0o700);
}

/**
 * Write `text` to `file` atomically: a 0600 temp file in the same directory, fsync, then rename,
 * so a crash leaves either the old or the new file, never half of one.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}
