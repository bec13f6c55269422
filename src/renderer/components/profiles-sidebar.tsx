// The connection sidebar: saved profiles with their color tag; one click connects (asking for the password where none is saved).
import { useState, type FormEvent } from 'react';
import type { AdvisorApi } from '../../shared/api.js';
import type { ProfileView, SecretStorageInfo } from '../../shared/api/profiles.js';
import { connectProfile, profileAddress, useProfiles, type ProfileConnection } from '../profiles.js';
import { ErrorBox, toShownError, type ShownError } from './error-box.js';
import { Modal } from './modal.js';

/** Props of {@link ProfilesSidebar}. */
export interface ProfilesSidebarProps {
  api: AdvisorApi;
  /** The profile of the live session, highlighted. */
  activeProfileId: string | null;
  onConnected(connection: ProfileConnection): void;
  /** Open the connection dialog on the profiles tab (a profile to edit, or null for a new one). */
  onManage(profileId: string | null): void;
}

/** The left column of the workbench. */
export function ProfilesSidebar({ api, activeProfileId, onConnected, onManage }: ProfilesSidebarProps) {
  const { profiles, secrets, error: listError } = useProfiles(api);
  const [collapsed, setCollapsed] = useState(false);
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [asking, setAsking] = useState<{ profile: ProfileView; error: ShownError | null } | null>(null);

  async function connect(profile: ProfileView, password?: string) {
    setPending(profile.id);
    setError(null);
    try {
      const connection = await connectProfile(api, profile.id, password === undefined ? {} : { password });
      setAsking(null);
      onConnected(connection);
    } catch (caught) {
      const shown = toShownError(caught);
      if (shown.code === 'AUTH_FAILED') setAsking({ profile, error: password === undefined ? null : shown });
      else setError(shown);
    } finally {
      setPending(null);
    }
  }

  function open(profile: ProfileView) {
    if (secrets.available && profile.hasPassword) void connect(profile);
    else setAsking({ profile, error: null });
  }

  if (collapsed) {
    return (
      <aside className="sidebar sidebar--collapsed" aria-label="Connections">
        <button
          type="button"
          className="button button--icon sidebar__toggle"
          onClick={() => setCollapsed(false)}
          aria-label="Show connections"
          title="Show saved connections"
          aria-expanded="false"
        >
          »
        </button>
      </aside>
    );
  }

  return (
    <aside className="sidebar" aria-label="Connections" data-testid="profiles-sidebar">
      <header className="sidebar__header">
        <h2>Connections</h2>
        <button
          type="button"
          className="button button--icon button--small"
          onClick={() => onManage(null)}
          aria-label="New connection profile"
          title="New connection profile"
          data-testid="sidebar-new-profile"
        >
          +
        </button>
        <button
          type="button"
          className="button button--icon button--small sidebar__toggle"
          onClick={() => setCollapsed(true)}
          aria-label="Hide connections"
          aria-expanded="true"
        >
          «
        </button>
      </header>
      {listError !== null && <ErrorBox error={toShownError(listError)} testId="sidebar-error" />}
      {profiles === null && listError === null && <p className="sidebar__hint">Loading profiles…</p>}
      {profiles?.length === 0 && (
        <div className="sidebar__empty" data-testid="sidebar-empty">
          <p>No saved connections yet.</p>
          <p className="sidebar__hint">
            Save a server as a profile (host, TLS, SSH tunnel, color) to connect with one click.
          </p>
          <button type="button" className="button button--small" onClick={() => onManage(null)}>
            New profile…
          </button>
        </div>
      )}
      {profiles && profiles.length > 0 && (
        <ul className="sidebar__list">
          {profiles.map((profile) => (
            <li
              key={profile.id}
              className={`sidebar__item${profile.id === activeProfileId ? ' is-active' : ''}`}
              data-testid="sidebar-profile"
            >
              <button
                type="button"
                className="sidebar__connect"
                onClick={() => open(profile)}
                disabled={pending !== null}
                title={`Connect to ${profileAddress(profile)}`}
                aria-current={profile.id === activeProfileId ? 'true' : undefined}
              >
                <span className={`color-tag color-tag--${profile.color}`} aria-hidden="true" />
                <span className="sidebar__name">
                  {profile.name}
                  <small>{pending === profile.id ? 'connecting…' : profileAddress(profile)}</small>
                </span>
                {profile.production && <span className="badge badge--production">prod</span>}
              </button>
              <button
                type="button"
                className="sidebar__edit"
                onClick={() => onManage(profile.id)}
                aria-label={`Edit ${profile.name}`}
                title="Edit, test, duplicate or delete"
              >
                ✎
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && <ErrorBox error={error} testId="sidebar-connect-error" />}
      {asking && (
        <PasswordPrompt
          profile={asking.profile}
          secrets={secrets}
          error={asking.error}
          pending={pending !== null}
          onSubmit={(password) => void connect(asking.profile, password)}
          onClose={() => setAsking(null)}
        />
      )}
    </aside>
  );
}

/** Ask for the password of a profile that has none saved, and say why it is not saved. */
export function PasswordPrompt({
  profile,
  secrets,
  error,
  pending,
  onSubmit,
  onClose,
}: {
  profile: ProfileView;
  secrets: SecretStorageInfo;
  error: ShownError | null;
  pending: boolean;
  onSubmit(password: string): void;
  onClose(): void;
}) {
  const [password, setPassword] = useState('');
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit(password);
  }
  return (
    <Modal title={`Connect to ${profile.name}`} onClose={onClose} testId="password-prompt">
      <form className="dialog__body" onSubmit={submit}>
        <div className="field">
          <label htmlFor="password-prompt-input">
            Password for {profile.user}@{profile.host}
          </label>
          <input
            id="password-prompt-input"
            type="password"
            autoFocus
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </div>
        <p className="dialog__note" data-testid="password-prompt-why">
          {secrets.available
            ? 'No password is saved for this profile. Edit the profile to save one in the OS keychain.'
            : (secrets.reason ??
              'No OS keychain is available here, so passwords are not saved; you are asked each time.')}
        </p>
        {error && <ErrorBox error={error} testId="password-prompt-error" />}
        <footer className="dialog__footer">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={pending}>
            {pending ? 'Connecting…' : 'Connect'}
          </button>
        </footer>
      </form>
    </Modal>
  );
}
