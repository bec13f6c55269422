// Polling a read-only snapshot on an interval (the Locks panel's lock waits and its Transactions view):
// one request at a time (a slow server never gets a queue of polls), paused by the user, by a lost link or
// by the caller (`enabled`), and at once on `pollNow`. Errors keep the last snapshot and are shown beside it.
//
// After an action that changes what is read (a KILL), `settle` polls again, paused or not, until the
// snapshot shows the change or a few seconds passed: KILL returns before the killed session has rolled
// back and left INNODB_TRX, and a poll already in flight when the action ran answers with the state before
// it, so a single refresh could keep showing a session that is gone.
import { useCallback, useEffect, useRef, useState } from 'react';
import { toShownError, type ShownError } from '../components/error-box.js';

/** Poll intervals offered, in seconds. */
export const pollIntervals = [1, 2, 5, 10, 30] as const;

/** Delays (ms) between the reads of {@link Polling.settle} after the first one: about 6 s in all. */
export const settleDelays = [250, 500, 1000, 2000, 2500] as const;

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
  /**
   * Read again after an action, paused or not: after the read in flight (it may predate the action), at
   * once and then after each of {@link settleDelays} until `settled(snapshot)` holds.
   */
  settle(settled: (snapshot: T) => boolean): Promise<void>;
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
  const inFlight = useRef<Promise<T | null> | null>(null);
  // Bumped when `read` changes or the view unmounts: a settle loop of the old source stops.
  const generation = useRef(0);

  const readOnce = useCallback((source: () => Promise<T>): Promise<T | null> => {
    const running: Promise<T | null> = Promise.resolve()
      .then(source)
      .then(
        (value) => {
          setSnapshot(value);
          setError(null);
          return value;
        },
        (caught: unknown) => {
          setError(toShownError(caught));
          return null;
        },
      )
      .finally(() => {
        if (inFlight.current === running) inFlight.current = null;
      });
    inFlight.current = running;
    return running;
  }, []);

  const pollNow = useCallback(async () => {
    if (!read || inFlight.current) return;
    await readOnce(read);
  }, [read, readOnce]);

  const settle = useCallback(
    async (settled: (snapshot: T) => boolean) => {
      if (!read) return;
      const mine = generation.current;
      for (const delay of [0, ...settleDelays]) {
        if (delay > 0) await new Promise((resolve) => window.setTimeout(resolve, delay));
        while (inFlight.current) await inFlight.current;
        if (generation.current !== mine) return;
        const value = await readOnce(read);
        if (value !== null && settled(value)) return;
      }
    },
    [read, readOnce],
  );

  useEffect(() => {
    const current = generation;
    return () => {
      current.current += 1;
    };
  }, [read]);

  useEffect(() => {
    if (!read || !enabled || paused || !linkUp) return;
    void pollNow();
    const timer = window.setInterval(() => void pollNow(), intervalSeconds * 1000);
    return () => window.clearInterval(timer);
  }, [read, enabled, paused, linkUp, intervalSeconds, pollNow]);

  return { snapshot, error, paused, setPaused, intervalSeconds, setIntervalSeconds, pollNow, settle };
}
