// The connection's reconnect state for the status bar and the banner: polls connection.status, describes it.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AdvisorApi } from '../shared/api.js';
import type { ConnectionStatus } from '../shared/api/connection-status.js';

/** After this many failed attempts the connection counts as lost (the backoff is near its 10 s ceiling). */
export const LOST_AFTER_ATTEMPTS = 5;

/** How often the status is asked: rarely while connected, every second while reconnecting. */
export const POLL_OPEN_MS = 3000;
export const POLL_DOWN_MS = 1000;

/** What the UI shows for a status. */
export interface LinkDescription {
  phase: 'connected' | 'reconnecting' | 'lost';
  /** Short text for the status bar. */
  text: string;
}

function seconds(ms: number): string {
  return `${Math.max(0, Math.ceil(ms / 100) / 10).toFixed(1)} s`;
}

/** `connected`, `reconnecting (attempt 2, next in 0.5 s)` or `lost (…)`. */
export function describeLink(status: ConnectionStatus): LinkDescription {
  if (status.state === 'open') return { phase: 'connected', text: 'connected' };
  if (status.state === 'closed') return { phase: 'lost', text: 'lost: the connection was closed' };
  const attempt = status.failedAttempts + 1;
  const next = status.nextAttemptInMs > 0 ? `next in ${seconds(status.nextAttemptInMs)}` : 'now';
  if (status.failedAttempts >= LOST_AFTER_ATTEMPTS)
    return { phase: 'lost', text: `lost (still retrying: attempt ${attempt}, ${next})` };
  return { phase: 'reconnecting', text: `reconnecting (attempt ${attempt}, ${next})` };
}

/**
 * Poll `connection.status` for the live connection; null while offline. The status call makes the
 * reconnect attempt that is due, so the connection heals even when no panel is polling.
 */
export function useLinkStatus(
  api: AdvisorApi,
  connectionId: string | null,
): { status: ConnectionStatus | null; retryNow(): void } {
  const [status, setStatus] = useState<ConnectionStatus | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const current = useRef(connectionId);
  current.current = connectionId;

  const ask = useCallback(
    async (retryNow: boolean) => {
      const id = current.current;
      if (!id) return;
      window.clearTimeout(timer.current);
      let next: ConnectionStatus | null = null;
      try {
        next = await api['connection.status']({ connectionId: id, ...(retryNow ? { retryNow } : {}) });
      } catch {
        // The bridge itself is unreachable: keep the last known state and ask again.
      }
      if (current.current !== id) return;
      if (next) setStatus(next);
      const wait = next?.state === 'open' ? POLL_OPEN_MS : POLL_DOWN_MS;
      timer.current = window.setTimeout(() => void ask(false), wait);
    },
    [api],
  );

  useEffect(() => {
    setStatus(null);
    if (connectionId) void ask(false);
    return () => window.clearTimeout(timer.current);
  }, [connectionId, ask]);

  const retryNow = useCallback(() => void ask(true), [ask]);
  return { status: connectionId ? status : null, retryNow };
}
