// The modal connection dialog: saved profiles, a one-off server (form fields or DSN), or offline work with a CREATE TABLE schema.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { AdvisorApi, ConnectionParams, OpenResult } from '../../shared/api.js';
import {
  duplicateForm,
  emptyProfileForm,
  formFromProfile,
  profileAddress,
  useProfiles,
  type ProfileConnection,
  type ProfileForm,
} from '../profiles.js';
import { defaultVersions, type LiveProfile, type OfflineFlavor, type Session } from '../session.js';
import { ErrorBox, toShownError, type ShownError } from './error-box.js';
import { SchemaFileField } from './schema-file-field.js';
import { useSchemaFile } from '../state/schema-file.js';
import type { Listen } from '../../shared/events.js';
import { ProfileEditor } from './profile-editor.js';
import { addNotices } from '../state/notices.js';

/** The dialog's tabs. */
export type ConnectionDialogTab = 'profiles' | 'server' | 'offline';
type Tab = ConnectionDialogTab;
type ServerInput = 'form' | 'dsn';
type TlsMode = 'off' | 'required' | 'verify';

/** Props of {@link ConnectionDialog}. */
export interface ConnectionDialogProps {
  api: AdvisorApi;
  /** Event channels (the schema file's loading progress). */
  listen: Listen;
  session: Session;
  onConnected(result: OpenResult, options: { allowWhatIf: boolean; profile?: LiveProfile }): void;
  onOffline(session: Extract<Session, { kind: 'offline' }>): void;
  onClose(): void;
  /** Open on this tab (default: Server, or Work offline for an offline session with a schema). */
  initialTab?: Tab;
  /** On the Profiles tab: edit this saved profile, or start a new one with null. */
  initialProfileId?: string | null;
}

/** Modal (native <dialog>: focus trap, Escape closes) for choosing what analyses run against. */
/** The server form's last values in this window (the password is never kept), so "Change connection…" starts from them. */
interface RememberedForm {
  input: ServerInput;
  dsn: string;
  host: string;
  port: string;
  user: string;
  database: string;
  tls: TlsMode;
  allowWhatIf: boolean;
}
let remembered: RememberedForm | null = null;

/** `mysql://user:secret@host/db` → `mysql://user@host/db`: a DSN is remembered without its password. */
export function withoutPassword(dsn: string): string {
  return dsn.replace(/^(\s*[a-z]+:\/\/[^:@/]*):[^@/]*@/i, '$1@');
}

export function ConnectionDialog({
  api,
  listen,
  session,
  onConnected,
  onOffline,
  onClose,
  initialTab,
  initialProfileId,
}: ConnectionDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [tab, setTab] = useState<Tab>(
    initialTab ??
      (session.kind === 'offline' && (session.schemaSql || session.schemaFile) ? 'offline' : 'server'),
  );
  const [input, setInput] = useState<ServerInput>(remembered?.input ?? 'form');
  const [dsn, setDsn] = useState(remembered?.dsn ?? '');
  const [host, setHost] = useState(remembered?.host ?? '127.0.0.1');
  const [port, setPort] = useState(remembered?.port ?? '3306');
  const [user, setUser] = useState(remembered?.user ?? '');
  const [password, setPassword] = useState('');
  const [database, setDatabase] = useState(remembered?.database ?? '');
  const [tls, setTls] = useState<TlsMode>(remembered?.tls ?? 'off');
  const [allowWhatIf, setAllowWhatIf] = useState(remembered?.allowWhatIf ?? false);
  /** Keep what was typed (never the password) for the next time the dialog opens. */
  function remember() {
    remembered = { input, dsn: withoutPassword(dsn), host, port, user, database, tls, allowWhatIf };
  }
  const [flavor, setFlavor] = useState<OfflineFlavor>(session.kind === 'offline' ? session.flavor : 'mysql');
  const [version, setVersion] = useState(
    session.kind === 'offline' ? session.version : defaultVersions.mysql,
  );
  const [schemaSql, setSchemaSql] = useState(session.kind === 'offline' ? session.schemaSql : '');
  const schemaFile = useSchemaFile(api, listen, session.kind === 'offline' ? session.schemaFile : undefined);
  const loadedFile = schemaFile.state.status === 'loaded' ? schemaFile.state.file : null;
  const staleFile =
    loadedFile !== null && (loadedFile.flavor !== flavor || loadedFile.version !== version.trim());
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  // A connect that finishes after Cancel must not leave a connection open on the server.
  const cancelled = useRef(false);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) {
      dialog.showModal();
      // showModal focuses the first focusable element (the tab switch); start in the first field instead.
      dialog.querySelector<HTMLElement>('input:not([type=radio]), textarea')?.focus();
    }
    return () => {
      cancelled.current = true;
    };
  }, []);

  function close() {
    cancelled.current = true;
    remember();
    onClose();
  }

  function params(): ConnectionParams | string {
    if (input === 'dsn') {
      if (!/^(mysql|mariadb):\/\//i.test(dsn.trim()))
        return 'Enter a DSN like mysql://user:password@host:3306/database.';
      return { dsn: dsn.trim(), ...(allowWhatIf ? { allowWhatIf } : {}) };
    }
    const portNumber = Number(port);
    if (!host.trim()) return 'Enter the server host, e.g. 127.0.0.1.';
    if (!Number.isInteger(portNumber) || portNumber < 1 || portNumber > 65535)
      return 'Enter a port between 1 and 65535.';
    if (!user.trim()) return 'Enter the user to connect as.';
    return {
      host: host.trim(),
      port: portNumber,
      user: user.trim(),
      password,
      ...(database.trim() ? { database: database.trim() } : {}),
      tls,
      ...(allowWhatIf ? { allowWhatIf } : {}),
    };
  }

  async function connect(event: FormEvent) {
    event.preventDefault();
    const request = params();
    if (typeof request === 'string') {
      setError({ code: 'INVALID_INPUT', message: request });
      return;
    }
    setPending(true);
    setError(null);
    cancelled.current = false;
    try {
      const result = await api['connection.open'](request);
      if (cancelled.current) {
        void api['connection.close']({ connectionId: result.connectionId }).catch(() => undefined);
        return;
      }
      addNotices('connect', result.notices);
      remember();
      onConnected(result, { allowWhatIf });
    } catch (caught) {
      if (!cancelled.current) setError(toShownError(caught));
    } finally {
      if (!cancelled.current) setPending(false);
    }
  }

  function workOffline(event: FormEvent) {
    event.preventDefault();
    if (!/^\d+(\.\d+){0,2}$/.test(version.trim())) {
      setError({ code: 'INVALID_INPUT', message: 'Enter a server version like 8.0.33 or 10.11.' });
      return;
    }
    if (schemaFile.state.status === 'loading' || schemaFile.state.status === 'uploading') {
      setError({ code: 'INVALID_INPUT', message: 'The schema file is still loading: wait, or cancel it.' });
      return;
    }
    if (staleFile) {
      setError({
        code: 'INVALID_INPUT',
        message: `The schema file was read for another flavor or version: load it again, or remove it.`,
      });
      return;
    }
    onOffline({
      kind: 'offline',
      flavor,
      version: version.trim(),
      schemaSql: loadedFile ? '' : schemaSql,
      ...(loadedFile ? { schemaFile: loadedFile } : {}),
    });
  }

  function changeFlavor(next: OfflineFlavor) {
    // Keep a version the user typed; swap only the other flavor's default.
    if (version === defaultVersions[flavor]) setVersion(defaultVersions[next]);
    setFlavor(next);
  }

  return (
    <dialog
      ref={dialogRef}
      className={`dialog${tab === 'profiles' ? ' dialog--wide' : ''}`}
      aria-labelledby="connection-dialog-title"
      data-testid="connection-dialog"
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
    >
      <header className="dialog__header">
        <h2 id="connection-dialog-title">Connect</h2>
        <div className="segmented" role="tablist" aria-label="Analyze against">
          <button
            type="button"
            role="tab"
            aria-selected={tab === 'profiles'}
            className={tab === 'profiles' ? 'is-active' : ''}
            data-testid="profiles-tab"
            onClick={() => {
              setTab('profiles');
              setError(null);
            }}
          >
            Profiles
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={tab === 'server'}
            className={tab === 'server' ? 'is-active' : ''}
            onClick={() => {
              setTab('server');
              setError(null);
            }}
          >
            Server
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={tab === 'offline'}
            className={tab === 'offline' ? 'is-active' : ''}
            data-testid="offline-tab"
            onClick={() => {
              setTab('offline');
              setError(null);
            }}
          >
            Work offline
          </button>
        </div>
      </header>

      {tab === 'profiles' ? (
        <ProfilesManager
          api={api}
          activeProfileId={session.kind === 'live' ? (session.profile?.id ?? null) : null}
          initialProfileId={initialProfileId}
          onConnected={(connection) => {
            if (cancelled.current) {
              void api['connection.close']({ connectionId: connection.result.connectionId }).catch(
                () => undefined,
              );
              return;
            }
            onConnected(connection.result, {
              allowWhatIf: connection.allowWhatIf,
              profile: connection.profile,
            });
          }}
          onCancel={close}
        />
      ) : tab === 'server' ? (
        <form className="dialog__body" onSubmit={connect} data-testid="server-form">
          <fieldset className="radio-row">
            <legend>Connect with</legend>
            <label>
              <input type="radio" name="input" checked={input === 'form'} onChange={() => setInput('form')} />
              Form
            </label>
            <label>
              <input type="radio" name="input" checked={input === 'dsn'} onChange={() => setInput('dsn')} />
              Connection URL
            </label>
          </fieldset>
          {input === 'dsn' ? (
            <div className="field">
              <label htmlFor="conn-dsn">DSN</label>
              <input
                id="conn-dsn"
                autoFocus
                spellCheck={false}
                autoComplete="off"
                placeholder="mysql://user:password@127.0.0.1:3306/shop"
                value={dsn}
                onChange={(event) => setDsn(event.target.value)}
              />
            </div>
          ) : (
            <div className="grid">
              <div className="field">
                <label htmlFor="conn-host">Host</label>
                <input
                  id="conn-host"
                  autoFocus
                  spellCheck={false}
                  value={host}
                  onChange={(event) => setHost(event.target.value)}
                />
              </div>
              <div className="field">
                <label htmlFor="conn-port">Port</label>
                <input
                  id="conn-port"
                  inputMode="numeric"
                  value={port}
                  onChange={(event) => setPort(event.target.value)}
                />
              </div>
              <div className="field">
                <label htmlFor="conn-user">User</label>
                <input
                  id="conn-user"
                  spellCheck={false}
                  autoComplete="username"
                  value={user}
                  onChange={(event) => setUser(event.target.value)}
                />
              </div>
              <div className="field">
                <label htmlFor="conn-password">Password</label>
                <input
                  id="conn-password"
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                />
              </div>
              <div className="field">
                <label htmlFor="conn-database">Database</label>
                <input
                  id="conn-database"
                  spellCheck={false}
                  placeholder="optional"
                  value={database}
                  onChange={(event) => setDatabase(event.target.value)}
                />
              </div>
              <div className="field">
                <label htmlFor="conn-tls">TLS</label>
                <select id="conn-tls" value={tls} onChange={(event) => setTls(event.target.value as TlsMode)}>
                  <option value="off">Off</option>
                  <option value="required">Required</option>
                  <option value="verify">Verify certificate</option>
                </select>
              </div>
            </div>
          )}
          <label className="checkbox-row">
            <input
              type="checkbox"
              checked={allowWhatIf}
              onChange={(event) => setAllowWhatIf(event.target.checked)}
              data-testid="allow-what-if"
            />
            <span>
              Allow what-if indexes (sandbox)
              <small>
                Lets “Verify” build a suggested index (INVISIBLE on MySQL 8), run EXPLAIN and drop it, each
                time after you confirm. Never on production.
              </small>
            </span>
          </label>
          <p className="dialog__note">
            Read-only: Sargable reads the schema and server settings; it never changes your data unless you
            confirm the exact SQL first.
          </p>
          {error && <ErrorBox error={error} testId="connection-error" />}
          <footer className="dialog__footer">
            <button type="button" className="button" onClick={close}>
              Cancel
            </button>
            <button
              type="submit"
              className="button button--primary"
              disabled={pending}
              data-testid="connect-submit"
            >
              {pending ? 'Connecting…' : 'Connect'}
            </button>
          </footer>
        </form>
      ) : (
        <form className="dialog__body" onSubmit={workOffline} data-testid="offline-form">
          <div className="grid">
            <div className="field">
              <label htmlFor="offline-flavor">Flavor</label>
              <select
                id="offline-flavor"
                value={flavor}
                onChange={(event) => changeFlavor(event.target.value as OfflineFlavor)}
              >
                <option value="mysql">MySQL</option>
                <option value="mariadb">MariaDB</option>
              </select>
            </div>
            <div className="field">
              <label htmlFor="offline-version">Version</label>
              <input
                id="offline-version"
                spellCheck={false}
                value={version}
                onChange={(event) => setVersion(event.target.value)}
              />
            </div>
            <div className="field field--full">
              <label htmlFor="offline-schema">Schema (CREATE TABLE statements)</label>
              <textarea
                id="offline-schema"
                className="code-input"
                rows={9}
                spellCheck={false}
                placeholder={
                  'CREATE TABLE products (\n  id int unsigned NOT NULL AUTO_INCREMENT,\n  create_time timestamp NULL,\n  PRIMARY KEY (id)\n);'
                }
                value={schemaSql}
                disabled={loadedFile !== null}
                onChange={(event) => setSchemaSql(event.target.value)}
              />
            </div>
            <SchemaFileField
              state={schemaFile.state}
              stale={staleFile}
              onChoose={() => {
                setError(null);
                void schemaFile.choose(flavor, version.trim());
              }}
              onCancel={schemaFile.cancel}
              onClear={schemaFile.clear}
            />
          </div>
          <p className="dialog__note">
            Without a server, advice uses this schema and the chosen version&rsquo;s features. Paste the
            output of SHOW CREATE TABLE, or load a dump file (mysqldump, mariadb-dump; any size).
          </p>
          {error && <ErrorBox error={error} testId="connection-error" />}
          <footer className="dialog__footer">
            <button type="button" className="button" onClick={close}>
              Cancel
            </button>
            <button type="submit" className="button button--primary" data-testid="offline-submit">
              Work offline
            </button>
          </footer>
        </form>
      )}
    </dialog>
  );
}

type Selection = { key: string; form: ProfileForm; savedId: string | null };

/** The Profiles tab: saved profiles on the left, the editor of the selected (or a new) one on the right. */
function ProfilesManager({
  api,
  activeProfileId,
  initialProfileId,
  onConnected,
  onCancel,
}: {
  api: AdvisorApi;
  activeProfileId: string | null;
  initialProfileId: string | null | undefined;
  onConnected(connection: ProfileConnection): void;
  onCancel(): void;
}) {
  const { profiles, secrets, error } = useProfiles(api);
  const counter = useRef(0);
  const [selection, setSelection] = useState<Selection | null>(null);
  const fresh = (form: ProfileForm, savedId: string | null): Selection => {
    counter.current += 1;
    return { key: `${savedId ?? 'new'}-${counter.current}`, form, savedId };
  };

  // First load: the requested profile, the active one, the first one, or a new profile.
  useEffect(() => {
    if (selection || profiles === null) return;
    const wanted =
      initialProfileId === null
        ? undefined
        : (profiles.find((profile) => profile.id === (initialProfileId ?? activeProfileId)) ?? profiles[0]);
    setSelection(wanted ? fresh(formFromProfile(wanted), wanted.id) : fresh(emptyProfileForm(), null));
  }, [profiles]);

  const saved = profiles?.find((profile) => profile.id === selection?.savedId) ?? null;

  return (
    <div className="dialog__body profiles-manager" data-testid="profiles-manager">
      <nav className="profiles-manager__list" aria-label="Saved profiles">
        <button
          type="button"
          className="button button--small"
          onClick={() => setSelection(fresh(emptyProfileForm(), null))}
          data-testid="profile-new"
        >
          + New profile
        </button>
        {error !== null && <ErrorBox error={toShownError(error)} testId="profiles-list-error" />}
        {profiles?.length === 0 && (
          <p className="sidebar__hint">No saved profiles yet: fill in the form and save it.</p>
        )}
        <ul className="sidebar__list">
          {profiles?.map((profile) => (
            <li
              key={profile.id}
              className={`sidebar__item${profile.id === selection?.savedId ? ' is-active' : ''}`}
            >
              <button
                type="button"
                className="sidebar__connect"
                onClick={() => setSelection(fresh(formFromProfile(profile), profile.id))}
                aria-current={profile.id === selection?.savedId ? 'true' : undefined}
                data-testid="profile-list-item"
              >
                <span className={`color-tag color-tag--${profile.color}`} aria-hidden="true" />
                <span className="sidebar__name">
                  {profile.name}
                  <small>{profileAddress(profile)}</small>
                </span>
                {profile.production && <span className="badge badge--production">prod</span>}
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="button profiles-manager__cancel" onClick={onCancel}>
          Close
        </button>
      </nav>
      {selection ? (
        <ProfileEditor
          key={selection.key}
          api={api}
          initial={selection.form}
          saved={saved}
          secrets={secrets}
          onSaved={(profile) =>
            setSelection((current) => (current ? { ...current, savedId: profile.id } : current))
          }
          onConnected={onConnected}
          onDeleted={() => setSelection(fresh(emptyProfileForm(), null))}
          onDuplicate={() => saved && setSelection(fresh(duplicateForm(saved), null))}
        />
      ) : (
        <p className="sidebar__hint">Loading profiles…</p>
      )}
    </div>
  );
}
