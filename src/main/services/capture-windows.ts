// Live polling windows for the API: a window is a DigestDeltaAccumulator kept in the service, one snapshot added per poll.
/*
 * Design note
 * -----------
 * The CLI's window (`captureDigestWindow`) polls and adds every interval on its own, which keeps it
 * exact when digest rows are reset in between (TRUNCATE, the table overflowing, a restart). The UI
 * polls too, one API call per step, so the accumulator lives here between calls: `start` takes the
 * first snapshot, each `poll` takes the next, adds it, reads DIGEST_TEXT of newly active digests
 * (kept for the whole window, so a digest that a TRUNCATE removes later keeps its text) and
 * QUERY_SAMPLE_TEXT of the classes that have none yet (kept too: a poll of a window with
 * thousands of classes asks only for the new ones), and returns the window so far. A poll that fails (the connection is lost) leaves the window as it
 * was, so the caller retries it on the same baseline after a reconnect. At most 8 windows are
 * kept; the oldest goes first.
 */
import { randomUUID } from 'node:crypto';
import type { Connection } from 'mysql2/promise';
import {
  DigestDeltaAccumulator,
  type DigestDelta,
  type DigestDeltaOptions,
} from '../../core/capture/index.js';
import type { ServerInfo } from '../../core/model/server-info.js';
import { AdvisorError } from '../../shared/errors.js';
import {
  accumulatedDelta,
  newDigestTextCache,
  readWindowBuckets,
  takeDigestSnapshot,
  type DigestTextCache,
  type SnapshotOptions,
} from './capture.js';

const MAX_WINDOWS = 8;

interface LiveWindow {
  connectionId: string;
  accumulator: DigestDeltaAccumulator;
  /** Texts, samples and max_sql_text_length read by earlier polls. */
  cache: DigestTextCache;
  maxRows: number | undefined;
  /** One poll at a time: a second one waits for the first (the accumulator needs snapshots in order). */
  busy: Promise<unknown>;
  /** The last poll's result: the window as the history records it when it ends. */
  last: DigestDelta | null;
}

/** The polling windows of one app (plain class, one per handler set). */
export class CaptureWindows {
  private readonly windows = new Map<string, LiveWindow>();

  /** Takes the first snapshot of a new window. */
  async start(
    connectionId: string,
    connection: Connection,
    server: ServerInfo,
    options: SnapshotOptions = {},
  ): Promise<{ windowId: string; takenAt: string }> {
    const first = await takeDigestSnapshot(connection, server, options);
    await readWindowBuckets(connection, server, first);
    const windowId = randomUUID();
    this.windows.set(windowId, {
      connectionId,
      accumulator: new DigestDeltaAccumulator(first),
      cache: newDigestTextCache(),
      maxRows: options.maxRows,
      busy: Promise.resolve(),
      last: null,
    });
    while (this.windows.size > MAX_WINDOWS) this.windows.delete(this.windows.keys().next().value as string);
    return { windowId, takenAt: new Date(first.takenAt * 1000).toISOString() };
  }

  /** Adds a snapshot taken now and returns the window so far. */
  async poll(
    connectionId: string,
    windowId: string,
    connection: Connection,
    server: ServerInfo,
    options: DigestDeltaOptions = {},
  ): Promise<DigestDelta> {
    const window = this.get(connectionId, windowId);
    const run = window.busy.then(async () => {
      const next = await takeDigestSnapshot(
        connection,
        server,
        window.maxRows === undefined ? {} : { maxRows: window.maxRows },
      );
      await readWindowBuckets(connection, server, next, window.accumulator.latest());
      window.accumulator.add(next);
      const delta = await accumulatedDelta(connection, server, window.accumulator, options, window.cache);
      window.last = delta;
      return delta;
    });
    window.busy = run.catch(() => undefined);
    return run;
  }

  /** The window as of its last poll (null: never polled, or gone); waits for a poll in flight. */
  async lastDelta(connectionId: string, windowId: string): Promise<DigestDelta | null> {
    const window = this.windows.get(windowId);
    if (!window || window.connectionId !== connectionId) return null;
    await window.busy;
    return window.last;
  }

  /** Forgets a window; false when it was already gone. */
  end(connectionId: string, windowId: string): boolean {
    const window = this.windows.get(windowId);
    if (!window || window.connectionId !== connectionId) return false;
    return this.windows.delete(windowId);
  }

  private get(connectionId: string, windowId: string): LiveWindow {
    const window = this.windows.get(windowId);
    if (!window || window.connectionId !== connectionId) {
      throw new AdvisorError(
        'NOT_FOUND',
        'That capture window is gone (or belongs to another connection). Start a new capture.',
      );
    }
    return window;
  }
}
