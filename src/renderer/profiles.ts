// Saved connection profiles in the renderer: the editable form, its conversion to the API's input, list refreshes.
import { useCallback, useEffect, useState } from 'react';
import type { AdvisorApi, OpenResult } from '../shared/api.js';
import type {
  ProfileInput,
  ProfileView,
  SecretStorageInfo,
  profileColors,
  tlsModes,
} from '../shared/api/profiles.js';
import type { LiveProfile } from './session.js';
import { addNotices } from './state/notices.js';

/** A profile color tag. */
export type ProfileColor = (typeof profileColors)[number];
/** A profile TLS mode. */
export type TlsMode = (typeof tlsModes)[number];

/** Color tags in menu order with their names (the API's list, kept here for the renderer bundle). */
export const colorChoices: readonly { value: ProfileColor; label: string }[] = [
  { value: 'none', label: 'No color' },
  { value: 'red', label: 'Red' },
  { value: 'orange', label: 'Orange' },
  { value: 'yellow', label: 'Yellow' },
  { value: 'green', label: 'Green' },
  { value: 'blue', label: 'Blue' },
  { value: 'purple', label: 'Purple' },
  { value: 'gray', label: 'Gray' },
];

/** TLS modes with what each one checks. */
export const tlsChoices: readonly { value: TlsMode; label: string }[] = [
  { value: 'disabled', label: 'Disabled' },
  { value: 'required', label: 'Required (encrypt, no certificate check)' },
  { value: 'verify-ca', label: 'Verify CA' },
  { value: 'verify-identity', label: 'Verify identity (CA and host name)' },
];

/** The editor's fields, as typed (numbers stay strings until saved). Secrets are separate. */
export interface ProfileForm {
  id?: string;
  name: string;
  color: ProfileColor;
  host: string;
  port: string;
  user: string;
  database: string;
  tlsMode: TlsMode;
  caFile: string;
  certFile: string;
  keyFile: string;
  useSsh: boolean;
  sshHost: string;
  sshPort: string;
  sshUser: string;
  sshAuth: 'key' | 'agent';
  sshKeyFile: string;
  sshHostKey: string;
  allowWhatIf: boolean;
  production: boolean;
}

/** A blank profile: local server, default port, no TLS, no tunnel. */
export function emptyProfileForm(): ProfileForm {
  return {
    name: '',
    color: 'none',
    host: '127.0.0.1',
    port: '3306',
    user: '',
    database: '',
    tlsMode: 'disabled',
    caFile: '',
    certFile: '',
    keyFile: '',
    useSsh: false,
    sshHost: '',
    sshPort: '22',
    sshUser: '',
    sshAuth: 'key',
    sshKeyFile: '',
    sshHostKey: '',
    allowWhatIf: false,
    production: false,
  };
}

/** The form for a saved profile. */
export function formFromProfile(profile: ProfileView): ProfileForm {
  return {
    id: profile.id,
    name: profile.name,
    color: profile.color,
    host: profile.host,
    port: String(profile.port),
    user: profile.user,
    database: profile.database ?? '',
    tlsMode: profile.tls.mode,
    caFile: profile.tls.caFile ?? '',
    certFile: profile.tls.certFile ?? '',
    keyFile: profile.tls.keyFile ?? '',
    useSsh: profile.ssh !== undefined,
    sshHost: profile.ssh?.host ?? '',
    sshPort: String(profile.ssh?.port ?? 22),
    sshUser: profile.ssh?.user ?? '',
    sshAuth: profile.ssh?.auth ?? 'key',
    sshKeyFile: profile.ssh?.keyFile ?? '',
    sshHostKey: profile.ssh?.hostKeyFingerprint ?? '',
    allowWhatIf: profile.allowWhatIf,
    production: profile.production,
  };
}

/** A copy to save as a new profile ("name (copy)", no id); secrets are not copied. */
export function duplicateForm(profile: ProfileView): ProfileForm {
  const { id: _id, ...rest } = formFromProfile(profile);
  return { ...rest, name: `${profile.name} (copy)` };
}

function portOf(text: string): number | null {
  const value = Number(text.trim());
  return Number.isInteger(value) && value >= 1 && value <= 65535 ? value : null;
}

/** The API input for the form, or a message saying which field to fix. */
export function formToInput(form: ProfileForm): ProfileInput | string {
  if (!form.name.trim()) return 'Give the profile a name, e.g. “shop staging”.';
  if (!form.host.trim()) return 'Enter the server host, e.g. 127.0.0.1.';
  const port = portOf(form.port);
  if (port === null) return 'Enter a port between 1 and 65535.';
  if (!form.user.trim()) return 'Enter the user to connect as.';
  if ((form.tlsMode === 'verify-ca' || form.tlsMode === 'verify-identity') && !form.caFile.trim())
    return 'Verify CA / verify identity needs the CA file (a PEM path on this machine).';
  if (Boolean(form.certFile.trim()) !== Boolean(form.keyFile.trim()))
    return 'A client certificate needs both the certificate file and its key file.';
  let ssh: ProfileInput['ssh'];
  if (form.useSsh) {
    const sshPort = portOf(form.sshPort);
    if (!form.sshHost.trim()) return 'Enter the SSH host of the tunnel.';
    if (sshPort === null) return 'Enter an SSH port between 1 and 65535.';
    if (!form.sshUser.trim()) return 'Enter the SSH user.';
    if (form.sshAuth === 'key' && !form.sshKeyFile.trim())
      return 'Enter the SSH private key file, or choose the SSH agent.';
    const hostKey = form.sshHostKey.trim();
    if (hostKey && !/^SHA256:[A-Za-z0-9+/]{43}$/.test(hostKey))
      return 'The pinned SSH host key looks like SHA256: followed by 43 characters (Test connection shows it).';
    ssh = {
      host: form.sshHost.trim(),
      port: sshPort,
      user: form.sshUser.trim(),
      auth: form.sshAuth,
      ...(form.sshAuth === 'key' ? { keyFile: form.sshKeyFile.trim() } : {}),
      ...(hostKey ? { hostKeyFingerprint: hostKey } : {}),
    };
  }
  const tls: ProfileInput['tls'] = { mode: form.tlsMode };
  if (form.tlsMode !== 'disabled') {
    if (form.caFile.trim()) tls.caFile = form.caFile.trim();
    if (form.certFile.trim()) tls.certFile = form.certFile.trim();
    if (form.keyFile.trim()) tls.keyFile = form.keyFile.trim();
  }
  return {
    ...(form.id ? { id: form.id } : {}),
    name: form.name.trim(),
    color: form.color,
    host: form.host.trim(),
    port,
    user: form.user.trim(),
    ...(form.database.trim() ? { database: form.database.trim() } : {}),
    tls,
    ...(ssh ? { ssh } : {}),
    allowWhatIf: form.allowWhatIf,
    production: form.production,
  };
}

/**
 * The password to send with a test or connect: what was typed, except that an empty field means
 * "use the saved one" when one is saved. Where nothing can be saved, the typed text is always sent
 * (an empty password is a valid password).
 */
export function passwordToSend(
  typed: string,
  secrets: SecretStorageInfo,
  hasPassword: boolean,
): string | undefined {
  if (secrets.available && hasPassword && typed === '') return undefined;
  return typed;
}

/** `user@host:port` (and `via ssh`) for a list entry. */
export function profileAddress(profile: ProfileView): string {
  return `${profile.user}@${profile.host}:${profile.port}${profile.database ? `/${profile.database}` : ''}${profile.ssh ? ` via ${profile.ssh.host}` : ''}`;
}

/** What a successful profile connect hands to the workbench. */
export interface ProfileConnection {
  result: OpenResult;
  allowWhatIf: boolean;
  profile: LiveProfile;
}

/** Connect through a saved profile (read-only analysis session). */
export async function connectProfile(
  api: AdvisorApi,
  id: string,
  secrets: { password?: string; sshPassphrase?: string } = {},
): Promise<ProfileConnection> {
  const reply = await api['profiles.connect']({ id, ...secrets });
  addNotices('connect', reply.notices);
  return {
    result: { connectionId: reply.connectionId, server: reply.server, label: reply.label },
    allowWhatIf: reply.allowWhatIf,
    profile: { id: reply.profileId, name: reply.name, color: reply.color, production: reply.production },
  };
}

const changes = new EventTarget();

/** Tell every profile list (sidebar, dialog) to reload after a save or delete. */
export function notifyProfilesChanged(): void {
  changes.dispatchEvent(new Event('changed'));
}

/** Saved profiles and the secret-storage state; reloads when any view saves or deletes one. */
export function useProfiles(api: AdvisorApi): {
  profiles: ProfileView[] | null;
  secrets: SecretStorageInfo;
  error: unknown;
  reload(): void;
} {
  const [state, setState] = useState<{
    profiles: ProfileView[] | null;
    secrets: SecretStorageInfo;
    error: unknown;
  }>({ profiles: null, secrets: { available: false }, error: null });
  const reload = useCallback(() => {
    api['profiles.list']().then(
      (value) => setState({ profiles: value.profiles, secrets: value.secrets, error: null }),
      (error: unknown) => setState((current) => ({ ...current, error })),
    );
  }, [api]);
  useEffect(() => {
    reload();
    changes.addEventListener('changed', reload);
    return () => changes.removeEventListener('changed', reload);
  }, [reload]);
  return { ...state, reload };
}
