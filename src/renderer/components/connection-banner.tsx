// The banner above the editor while the connection is down: what happened, that polling views pause, Retry now.
import { useEffect, useRef, useState } from 'react';
import type { ConnectionStatus } from '../../shared/api/connection-status.js';
import { describeLink } from '../link-status.js';

/** How long "Reconnected" stays after the connection came back. */
const RECONNECTED_NOTICE_MS = 4000;

/** Shown while reconnecting or lost, and briefly after the connection came back. */
export function ConnectionBanner({
  status,
  label,
  onRetry,
  onReconnect,
}: {
  status: ConnectionStatus | null;
  label: string;
  onRetry(): void;
  /** For a closed connection: open the connection dialog. */
  onReconnect(): void;
}) {
  const [recovered, setRecovered] = useState(false);
  const wasDown = useRef(false);
  const down = status !== null && status.state !== 'open';
  useEffect(() => {
    if (down) {
      wasDown.current = true;
      setRecovered(false);
      return;
    }
    if (!wasDown.current || status === null) return;
    wasDown.current = false;
    setRecovered(true);
    const timer = window.setTimeout(() => setRecovered(false), RECONNECTED_NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [down, status]);

  if (status === null || (!down && !recovered)) return null;
  if (!down) {
    return (
      <div className="connection-banner connection-banner--ok" role="status" data-testid="connection-banner">
        Reconnected to {label}. The session is read-only again; paused views resumed.
      </div>
    );
  }
  const link = describeLink(status);
  return (
    <div
      className={`connection-banner connection-banner--${link.phase}`}
      role="alert"
      data-testid="connection-banner"
    >
      <span>
        <strong>
          {link.phase === 'lost' ? 'Connection lost' : 'Connection interrupted'}: {label}
        </strong>{' '}
        — {link.text}. Views that poll (Locks, capture) are paused and resume by themselves.
        {status.lastError && <span className="connection-banner__why"> Last error: {status.lastError}</span>}
      </span>
      {status.state === 'closed' ? (
        <button type="button" className="button button--small" onClick={onReconnect}>
          Connect again…
        </button>
      ) : (
        <button
          type="button"
          className="button button--small"
          onClick={onRetry}
          data-testid="connection-retry"
        >
          Retry now
        </button>
      )}
    </div>
  );
}
