// The connection profile editor: every field of a profile, secrets that go in but never come back, Test connection.
import { useState, type FormEvent } from 'react';
import type { AdvisorApi } from '../../shared/api.js';
import type { ConnectionTestResult, ProfileView, SecretStorageInfo } from '../../shared/api/profiles.js';
import { copyText } from '../platform.js';
import {
  colorChoices,
  connectProfile,
  formToInput,
  notifyProfilesChanged,
  passwordToSend,
  tlsChoices,
  type ProfileConnection,
  type ProfileForm,
  type TlsMode,
} from '../profiles.js';
import { flavorName } from '../session.js';
import { ErrorBox, toShownError, type ShownError } from './error-box.js';

/** Props of {@link ProfileEditor}. */
export interface ProfileEditorProps {
  api: AdvisorApi;
  initial: ProfileForm;
  /** The saved profile being edited (for `hasPassword`); null for a new one or a copy. */
  saved: ProfileView | null;
  secrets: SecretStorageInfo;
  onSaved(profile: ProfileView): void;
  onConnected(connection: ProfileConnection): void;
  onDeleted(): void;
  onDuplicate(): void;
}

type Busy = null | 'test' | 'save' | 'connect' | 'delete';

/** Edit, test, save, connect, duplicate and delete one profile. */
export function ProfileEditor({
  api,
  initial,
  saved,
  secrets,
  onSaved,
  onConnected,
  onDeleted,
  onDuplicate,
}: ProfileEditorProps) {
  const [form, setForm] = useState<ProfileForm>(initial);
  const [password, setPassword] = useState('');
  const [forgetPassword, setForgetPassword] = useState(false);
  const [passphrase, setPassphrase] = useState('');
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [test, setTest] = useState<ConnectionTestResult | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const hasPassword = saved?.hasPassword === true && !forgetPassword;
  const hasPassphrase = saved?.hasSshPassphrase === true;

  function set<K extends keyof ProfileForm>(key: K, value: ProfileForm[K]) {
    setForm((current) => ({ ...current, [key]: value }));
    setNotice(null);
  }

  function input() {
    const value = formToInput(form);
    if (typeof value === 'string') {
      setError({ code: 'INVALID_INPUT', message: value });
      return null;
    }
    return value;
  }

  async function run(kind: Exclude<Busy, null>, action: () => Promise<void>) {
    setBusy(kind);
    setError(null);
    setNotice(null);
    try {
      await action();
    } catch (caught) {
      setError(toShownError(caught));
    } finally {
      setBusy(null);
    }
  }

  /** Save; the password goes to the keychain only where one is available. */
  async function save(): Promise<ProfileView | null> {
    const profile = input();
    if (!profile) return null;
    const reply = await api['profiles.save']({
      profile,
      ...(secrets.available && password !== '' ? { password } : {}),
      ...(secrets.available && passphrase !== '' ? { sshPassphrase: passphrase } : {}),
      ...(forgetPassword ? { forgetPassword: true } : {}),
    });
    setForm((current) => ({ ...current, id: reply.profile.id }));
    setPassword('');
    setPassphrase('');
    setForgetPassword(false);
    setNotice(
      reply.passwordStored
        ? `Saved “${reply.profile.name}”; the password is in the OS keychain.`
        : `Saved “${reply.profile.name}”. ${secrets.available ? 'No password is saved.' : 'The password was not saved (see below).'}`,
    );
    notifyProfilesChanged();
    onSaved(reply.profile);
    return reply.profile;
  }

  /** Secrets for a test: what was typed; an empty password field means the saved one when there is one. */
  function typedSecrets() {
    const pw = passwordToSend(password, secrets, hasPassword);
    return {
      ...(pw !== undefined ? { password: pw } : {}),
      ...(form.useSsh && passphrase !== '' ? { sshPassphrase: passphrase } : {}),
    };
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const typedPassword = password;
    const typedPassphrase = passphrase;
    void run('connect', async () => {
      const profile = await save();
      if (!profile) return;
      // What save() put in the keychain is used from there; otherwise what was typed, this once.
      onConnected(
        await connectProfile(api, profile.id, {
          ...(profile.hasPassword ? {} : { password: typedPassword }),
          ...(profile.hasSshPassphrase || typedPassphrase === '' ? {} : { sshPassphrase: typedPassphrase }),
        }),
      );
    });
  }

  const tlsFiles = form.tlsMode !== 'disabled';
  const id = (name: string) => `profile-${name}`;

  return (
    <form className="profile-editor" onSubmit={submit} data-testid="profile-editor">
      <div className="grid">
        <div className="field">
          <label htmlFor={id('name')}>Profile name</label>
          <input
            id={id('name')}
            autoFocus
            value={form.name}
            placeholder="shop staging"
            onChange={(event) => set('name', event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={id('color')}>Color tag</label>
          <div className="profile-editor__color">
            <span className={`color-tag color-tag--${form.color}`} aria-hidden="true" />
            <select
              id={id('color')}
              value={form.color}
              onChange={(event) => set('color', event.target.value as ProfileForm['color'])}
            >
              {colorChoices.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="field">
          <label htmlFor={id('host')}>Server host</label>
          <input
            id={id('host')}
            spellCheck={false}
            value={form.host}
            onChange={(event) => set('host', event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={id('port')}>Server port</label>
          <input
            id={id('port')}
            inputMode="numeric"
            value={form.port}
            onChange={(event) => set('port', event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={id('user')}>Server user</label>
          <input
            id={id('user')}
            spellCheck={false}
            autoComplete="off"
            value={form.user}
            onChange={(event) => set('user', event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={id('password')}>Server password</label>
          <input
            id={id('password')}
            type="password"
            autoComplete="new-password"
            value={password}
            placeholder={hasPassword ? 'saved in the keychain — type to replace' : ''}
            onChange={(event) => setPassword(event.target.value)}
            data-testid="profile-password"
          />
        </div>
        <div className="field">
          <label htmlFor={id('database')}>Default schema</label>
          <input
            id={id('database')}
            spellCheck={false}
            placeholder="optional"
            value={form.database}
            onChange={(event) => set('database', event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={id('tls')}>TLS</label>
          <select
            id={id('tls')}
            value={form.tlsMode}
            onChange={(event) => set('tlsMode', event.target.value as TlsMode)}
          >
            {tlsChoices.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
        {tlsFiles && (
          <>
            <div className="field field--full">
              <label htmlFor={id('ca')}>CA file (PEM path on this machine)</label>
              <input
                id={id('ca')}
                spellCheck={false}
                placeholder={form.tlsMode === 'required' ? 'optional' : '/etc/mysql/ca.pem'}
                value={form.caFile}
                onChange={(event) => set('caFile', event.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={id('cert')}>Client certificate file</label>
              <input
                id={id('cert')}
                spellCheck={false}
                placeholder="optional"
                value={form.certFile}
                onChange={(event) => set('certFile', event.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={id('key')}>Client key file</label>
              <input
                id={id('key')}
                spellCheck={false}
                placeholder="optional"
                value={form.keyFile}
                onChange={(event) => set('keyFile', event.target.value)}
              />
            </div>
          </>
        )}
      </div>
      {!secrets.available ? (
        <p className="dialog__note" data-testid="no-keychain">
          <strong>Passwords are not saved here.</strong>{' '}
          {secrets.reason ??
            'No OS keychain is available, so passwords are not saved; you will be asked each time.'}{' '}
          The password above is used for this test or connect only.
        </p>
      ) : (
        saved?.hasPassword && (
          <label className="checkbox-row">
            <input
              type="checkbox"
              checked={forgetPassword}
              onChange={(event) => setForgetPassword(event.target.checked)}
            />
            <span>Forget the saved password (ask each time)</span>
          </label>
        )
      )}

      <fieldset className="profile-editor__group">
        <legend>
          <label className="checkbox-row">
            <input
              type="checkbox"
              checked={form.useSsh}
              onChange={(event) => set('useSsh', event.target.checked)}
              data-testid="profile-use-ssh"
            />
            <span>SSH tunnel</span>
          </label>
        </legend>
        {form.useSsh && (
          <div className="grid">
            <div className="field">
              <label htmlFor={id('ssh-host')}>SSH host</label>
              <input
                id={id('ssh-host')}
                spellCheck={false}
                value={form.sshHost}
                onChange={(event) => set('sshHost', event.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={id('ssh-port')}>SSH port</label>
              <input
                id={id('ssh-port')}
                inputMode="numeric"
                value={form.sshPort}
                onChange={(event) => set('sshPort', event.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={id('ssh-user')}>SSH user</label>
              <input
                id={id('ssh-user')}
                spellCheck={false}
                value={form.sshUser}
                onChange={(event) => set('sshUser', event.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={id('ssh-auth')}>SSH authentication</label>
              <select
                id={id('ssh-auth')}
                value={form.sshAuth}
                onChange={(event) => set('sshAuth', event.target.value as 'key' | 'agent')}
              >
                <option value="key">Private key file</option>
                <option value="agent">SSH agent (SSH_AUTH_SOCK)</option>
              </select>
            </div>
            {form.sshAuth === 'key' && (
              <>
                <div className="field">
                  <label htmlFor={id('ssh-key')}>SSH key file</label>
                  <input
                    id={id('ssh-key')}
                    spellCheck={false}
                    placeholder="~/.ssh/id_ed25519"
                    value={form.sshKeyFile}
                    onChange={(event) => set('sshKeyFile', event.target.value)}
                  />
                </div>
                <div className="field">
                  <label htmlFor={id('ssh-passphrase')}>Key passphrase</label>
                  <input
                    id={id('ssh-passphrase')}
                    type="password"
                    autoComplete="off"
                    placeholder={hasPassphrase ? 'saved in the keychain' : 'if the key has one'}
                    value={passphrase}
                    onChange={(event) => setPassphrase(event.target.value)}
                  />
                </div>
              </>
            )}
            <div className="field field--full">
              <label htmlFor={id('ssh-hostkey')}>Pinned SSH host key</label>
              <input
                id={id('ssh-hostkey')}
                spellCheck={false}
                placeholder="SHA256:… (Test connection shows it; empty accepts the first one seen)"
                value={form.sshHostKey}
                onChange={(event) => set('sshHostKey', event.target.value)}
              />
            </div>
          </div>
        )}
      </fieldset>

      <label className="checkbox-row">
        <input
          type="checkbox"
          checked={form.allowWhatIf}
          onChange={(event) => set('allowWhatIf', event.target.checked)}
          data-testid="profile-allow-what-if"
        />
        <span>
          Allow what-if DDL (sandbox)
          <small>
            “Verify” may build a suggested index (INVISIBLE on MySQL 8), EXPLAIN and drop it, each time after
            you confirm the exact SQL.
          </small>
        </span>
      </label>
      <label className="checkbox-row">
        <input
          type="checkbox"
          checked={form.production}
          onChange={(event) => set('production', event.target.checked)}
          data-testid="profile-production"
        />
        <span>
          Production
          <small>
            Every write (what-if index, kill, slow-log window) also asks you to type the profile name; the
            server refuses the request without it.
          </small>
        </span>
      </label>

      {error && <ErrorBox error={error} testId="profile-error" />}
      {notice && (
        <p className="locks__notice" role="status" data-testid="profile-notice">
          {notice}
        </p>
      )}
      {test && (
        <ConnectionTestView
          result={test}
          onPin={(fingerprint) => set('sshHostKey', fingerprint)}
          pinned={form.sshHostKey}
        />
      )}

      <footer className="dialog__footer profile-editor__footer">
        {saved &&
          (confirmDelete ? (
            <>
              <span className="profile-editor__confirm">Delete “{saved.name}” and its saved secrets?</span>
              <button type="button" className="button" onClick={() => setConfirmDelete(false)}>
                Keep
              </button>
              <button
                type="button"
                className="button button--danger"
                data-testid="profile-delete-confirm"
                onClick={() =>
                  void run('delete', async () => {
                    await api['profiles.delete']({ id: saved.id });
                    notifyProfilesChanged();
                    onDeleted();
                  })
                }
              >
                Delete
              </button>
            </>
          ) : (
            <>
              <button
                type="button"
                className="button"
                onClick={() => setConfirmDelete(true)}
                data-testid="profile-delete"
              >
                Delete…
              </button>
              <button type="button" className="button" onClick={onDuplicate} data-testid="profile-duplicate">
                Duplicate
              </button>
            </>
          ))}
        <span className="toolbar__spacer" />
        <button
          type="button"
          className="button"
          disabled={busy !== null}
          data-testid="profile-test"
          onClick={() =>
            void run('test', async () => {
              const profile = input();
              if (!profile) return;
              setTest(null);
              setTest(
                await api['profiles.test']({
                  ...(form.id ? { id: form.id } : {}),
                  profile,
                  ...typedSecrets(),
                }),
              );
            })
          }
        >
          {busy === 'test' ? 'Testing…' : 'Test connection'}
        </button>
        <button
          type="button"
          className="button"
          disabled={busy !== null}
          data-testid="profile-save"
          onClick={() =>
            void run('save', async () => {
              await save();
            })
          }
        >
          {busy === 'save' ? 'Saving…' : 'Save'}
        </button>
        <button
          type="submit"
          className="button button--primary"
          disabled={busy !== null}
          data-testid="profile-connect"
        >
          {busy === 'connect' ? 'Connecting…' : 'Save and connect'}
        </button>
      </footer>
    </form>
  );
}

/** The Test connection result: server, TLS, account, and per feature what is missing with the fixing GRANTs. */
export function ConnectionTestView({
  result,
  onPin,
  pinned,
}: {
  result: ConnectionTestResult;
  onPin(fingerprint: string): void;
  pinned: string;
}) {
  const missing = result.privileges.filter((feature) => !feature.ok);
  const grants = [...new Set(missing.flatMap((feature) => feature.grants))];
  return (
    <section
      className="connection-test"
      aria-label="Test connection result"
      data-testid="profile-test-result"
    >
      <p className="connection-test__head">
        <span className="badge badge--ok">connected</span>{' '}
        <strong data-testid="profile-test-server">
          {flavorName(result.server.flavor)} {result.server.version}
        </strong>{' '}
        as <code>{result.account}</code> · {Math.round(result.latencyMs)} ms ·{' '}
        {result.via === 'ssh' ? 'through the SSH tunnel' : 'direct'}
      </p>
      <p data-testid="profile-test-tls">
        TLS:{' '}
        {result.tls ? (
          <>
            in use, {result.tls.version} <code>{result.tls.cipher}</code>
          </>
        ) : (
          <strong>not in use</strong>
        )}
        {result.tls === null && ' — the connection is not encrypted.'}
      </p>
      {result.sshHostKeyFingerprint && (
        <p>
          SSH host key <code>{result.sshHostKeyFingerprint}</code>{' '}
          {pinned === result.sshHostKeyFingerprint ? (
            '(pinned)'
          ) : (
            <button
              type="button"
              className="button button--small"
              onClick={() => onPin(result.sshHostKeyFingerprint!)}
            >
              Pin it
            </button>
          )}
        </p>
      )}
      <table className="data-table connection-test__features">
        <tbody>
          {result.privileges.map((feature) => (
            <tr key={feature.feature} data-testid="profile-test-feature">
              <td>{feature.ok ? '✓' : '✗'}</td>
              <td>{feature.label}</td>
              <td>{feature.ok ? 'ok' : `missing ${feature.missing.join(', ')}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {grants.length > 0 && (
        <>
          <p>
            {missing.length === 1 ? 'One feature needs' : `${missing.length} features need`} more privileges.
            A DBA can run:
          </p>
          <pre className="dialog__sql" data-testid="profile-test-grants">
            {grants.join('\n')}
          </pre>
          <button
            type="button"
            className="button button--small"
            onClick={() => void copyText(grants.join('\n'))}
          >
            Copy GRANTs
          </button>
        </>
      )}
      {result.notes.map((note) => (
        <p key={note} className="dialog__note">
          {note}
        </p>
      ))}
    </section>
  );
}
