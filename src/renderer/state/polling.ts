// Polling a read-only snapshot on an interval (the Locks panel's lock waits and its Transactions view):
// one request at a time (a slow server never gets a queue of polls), paused by the user, by a lost link or
// by the caller (`enabled`), and at once on `pollNow`. Errors keep the last snapshot and are shown beside it.
import { useCallback, useEffect, useRef, useState } from 'react';
import { toShownError, type ShownError } from '../components/error-box.js';

/** Poll intervals offered, in seconds. */
export const pollIntervals = [1, 2, 5, 10, 30] as const;

/** What {@link usePolling} gives its view. */
export interface Polling<T> {
  snapshot: T | null;
  error: ShownError | null;
  paused: boolean;
  setPaused(update: (paused: boolean) => boolean): void;
  intervalSeconds: number;
  setIntervalSeconds(seconds: number): void;
  /** Poll now (skipped while a poll is in flight). */
  pollNow(): Promise<void>;
}

/** Polls `read` every `intervalSeconds` while `enabled`, not paused and the link is up. */
export function usePolling<T>(
  read: (() => Promise<T>) | null,
  { enabled = true, linkUp = true } = {},
): Polling<T> {
  const [snapshot, setSnapshot] = useState<T | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [paused, setPaused] = useState(false);
  const [intervalSeconds, setIntervalSeconds] = useState<number>(2);
  const inFlight = useRef(false);

  const pollNow = useCallback(async () => {
    if (!read || inFlight.current) return;
    inFlight.current = true;
    try {
      setSnapshot(await read());
      setError(null);
    } catch (caught) {
      setError(toShownError(caught));
    } finally {
      inFlight.current = false;
    }
  }, [read]);

  useEffect(() => {
    if (!read || !enabled || paused || !linkUp) return;
    void pollNow();
    const timer = window.setInterval(() => void pollNow(), intervalSeconds * 1000);
    return () => window.clearInterval(timer);
  }, [read, enabled, paused, linkUp, intervalSeconds, pollNow]);

  return { snapshot, error, paused, setPaused, intervalSeconds, setIntervalSeconds, pollNow };
}
