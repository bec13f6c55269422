// The capture history service: record finished capture windows, list them, trends per class, settings, retention, clear.
/*
 * Design note
 * -----------
 * - One SQLite file (history-db.ts) in the config directory holds every window of every profile.
 *   This file is the store (settings, record, clear); the reads are history-queries.ts, the
 *   retention history-retention.ts, the row helpers history-rows.ts.
 *   A window is recorded once a capture is finished (handlers/capture.ts: the whole live window's
 *   delta, a mysql.slow_log read or window, a slow-log file digest) when the settings say so;
 *   the CLI records only with `--record`.
 * - Scope: a window belongs to a profile (its name, or null) and a server (`host:port`, or null
 *   for a file); a `profile` filter matches either. Trends are per scope and source.
 * - Privacy: fingerprints and metrics are always stored; samples per the policy of the window's
 *   profile (production or not) at the time it is recorded (core/history sampleFor).
 * - Retention: every write prunes windows recorded more than `retentionDays` ago (recorded, not
 *   ended: a log imported today from last year is kept as long as a live window of today) and
 *   all but the newest `maxWindows` (by end); a class without windows left goes too.
 * - A window keeps at most MAX_CLASSES_PER_WINDOW classes, the most total time first (a slow log
 *   with 100,000 fingerprints would otherwise write 100,000 rows per import); `omitted` counts the rest.
 */
import {
  historyRowsFromTopClasses,
  samplePolicyFor,
  type CaptureWindow,
  type HistoryExportRow,
  type HistorySettings,
  type HistoryWindow,
  type SamplePolicy,
} from '../../core/history/index.js';
import type { HistoryRecordReply } from '../../shared/api/history.js';
import type { ConnectionTarget } from './connection.js';
import { HistoryDb } from './history-db.js';
import {
  classHistoryOf,
  exportRowsIn,
  trendsIn,
  windowsIn,
  type ClassHistoryQuery,
  type HistoryClass,
  type HistoryTrends,
  type TrendsQuery,
} from './history-queries.js';
import { deleteWindows, prune } from './history-retention.js';
import { readSettings, rows, scopeWhere, type HistoryScope } from './history-rows.js';

export type { HistoryClass, HistoryTrends } from './history-queries.js';
export type { HistoryScope } from './history-rows.js';

/** Classes kept per window (most total time first). */
export const MAX_CLASSES_PER_WINDOW = 5000;

/** Who a window belongs to. */
export interface WindowOwner {
  profile: string | null;
  server: string | null;
  production: boolean;
}

/** The capture history in one SQLite file (see the design note). */
export class HistoryService {
  readonly db: HistoryDb;

  constructor(
    file: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.db = new HistoryDb(file);
  }

  get file(): string {
    return this.db.file;
  }

  async settings(): Promise<HistorySettings> {
    return this.db.read(readSettings);
  }

  /** Change settings (a partial patch); prunes at once with the new retention. */
  async setSettings(
    patch: Partial<Omit<HistorySettings, 'samples'>> & { samples?: Partial<HistorySettings['samples']> },
  ): Promise<HistorySettings & { pruned: number }> {
    return this.db.write((db) => {
      const current = readSettings(db);
      const next: HistorySettings = {
        ...current,
        ...Object.fromEntries(
          Object.entries(patch).filter(([key, value]) => key !== 'samples' && value !== undefined),
        ),
        samples: {
          ...current.samples,
          ...Object.fromEntries(Object.entries(patch.samples ?? {}).filter(([, v]) => v !== undefined)),
        },
      };
      db.run(
        "INSERT INTO meta (key, value) VALUES ('settings', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        [JSON.stringify(next)],
      );
      const pruned = prune(db, next, this.now());
      return { result: { ...next, pruned }, deleted: pruned > 0 };
    });
  }

  /**
   * Store a finished capture window for `owner`. Null when recording is off in the settings.
   * Prunes per the retention settings in the same write.
   */
  async record(
    capture: CaptureWindow,
    owner: WindowOwner,
  ): Promise<{
    windowId: number;
    samples: SamplePolicy;
    classes: number;
    omitted: number;
    pruned: number;
  } | null> {
    return this.db.write((db) => {
      const settings = readSettings(db);
      if (!settings.enabled) return { result: null, deleted: false };
      const samples = samplePolicyFor(settings, owner.production);
      const ranked = [...capture.classes].sort((a, b) => b.totalSeconds - a.totalSeconds);
      const kept = ranked.slice(0, MAX_CLASSES_PER_WINDOW);
      const stored = historyRowsFromTopClasses(kept, samples);
      const recordedAt = this.now().toISOString();
      db.run(
        'INSERT INTO windows (source, label, profile, server, production, start_at, end_at, recorded_at, events, class_count, omitted, samples) ' +
          'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [
          capture.source,
          capture.label,
          owner.profile,
          owner.server,
          owner.production ? 1 : 0,
          capture.start,
          capture.end,
          recordedAt,
          capture.events,
          stored.length,
          ranked.length - kept.length,
          samples,
        ],
      );
      const windowId = Number(db.exec('SELECT last_insert_rowid()')[0]!.values[0]![0]);
      const upsert = db.prepare(
        'INSERT INTO classes (class_key, checksum, digest, fingerprint) VALUES (?, ?, ?, ?) ' +
          'ON CONFLICT(class_key) DO UPDATE SET fingerprint = excluded.fingerprint, ' +
          'checksum = COALESCE(excluded.checksum, classes.checksum), digest = COALESCE(excluded.digest, classes.digest) ' +
          'RETURNING id',
      );
      const insert = db.prepare(
        'INSERT OR REPLACE INTO stats (window_id, class_ref, count, total_s, p95_s, max_s, lifetime, rows_examined, rows_sent, lock_s, first_seen, last_seen, schemas, sample) ' +
          'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      try {
        for (const row of stored) {
          upsert.bind([row.classId, row.checksum, row.digest, row.fingerprint]);
          upsert.step();
          const classRef = Number(upsert.get()[0]);
          upsert.reset();
          insert.run([
            windowId,
            classRef,
            row.count,
            row.totalSeconds,
            row.p95,
            row.max,
            row.lifetime ? 1 : 0,
            row.rowsExamined,
            row.rowsSent,
            row.lockSeconds,
            row.firstSeen,
            row.lastSeen,
            JSON.stringify(row.schemas),
            row.sample,
          ]);
        }
      } finally {
        upsert.free();
        insert.free();
      }
      const pruned = prune(db, settings, this.now());
      return {
        result: { windowId, samples, classes: stored.length, omitted: ranked.length - kept.length, pruned },
        deleted: pruned > 0,
      };
    });
  }

  /** Windows in scope, newest first. */
  async windows(scope: HistoryScope = {}, limit = 1000): Promise<HistoryWindow[]> {
    return this.db.read((db) => windowsIn(db, scope, limit));
  }

  /**
   * Trends: the last `seriesWindows` windows of the scope ending at `windowId` (default: the
   * newest), the top `limit` classes of that window by total time (or exactly `classIds`).
   * With `windowId`, the scope defaults to that window's profile and source.
   */
  async trends(query: TrendsQuery): Promise<HistoryTrends> {
    return this.db.read((db) => trendsIn(db, query));
  }

  /**
   * One class over the last `seriesWindows` windows (default 100) of its scope (by default the
   * profile and source of the newest window it is in), markers for the scope's newest window.
   * NOT_FOUND when the class was never stored.
   */
  async classHistory(query: ClassHistoryQuery): Promise<HistoryClass> {
    return classHistoryOf(this.db, query);
  }

  /** Flat rows for export (CSV/JSON), oldest window first. `classId` matches the class id, checksum or digest. */
  async exportRows(scope: HistoryScope & { classId?: string | undefined }): Promise<HistoryExportRow[]> {
    return this.db.read((db) => exportRowsIn(db, scope));
  }

  /** Delete the windows in scope (everything without a scope); returns how many went. */
  async clear(scope: HistoryScope = {}): Promise<{ windowsDeleted: number }> {
    return this.db.write((db) => {
      const { where, params } = scopeWhere(scope);
      const ids = rows(db, `SELECT id FROM windows ${where}`, params).map((row) => Number(row.id));
      const deleted = deleteWindows(db, ids);
      return { result: { windowsDeleted: deleted }, deleted: true };
    });
  }
}

/** Who a window of this connection target belongs to. */
export function windowOwner(
  target: Pick<ConnectionTarget, 'host' | 'port' | 'profile' | 'production'>,
): WindowOwner {
  return {
    profile: target.profile ?? null,
    server: `${target.host}:${target.port}`,
    production: target.production !== undefined,
  };
}

/**
 * Record a finished capture; never throws (the capture succeeded, a history failure only says
 * so in `skipped`). No history service: skipped.
 */
export async function recordCapture(
  history: HistoryService | undefined,
  capture: CaptureWindow,
  owner: WindowOwner,
): Promise<HistoryRecordReply> {
  const none = { windowId: null, samples: null, classes: 0, omitted: 0, pruned: 0 };
  if (!history) return { ...none, skipped: 'This face of Sargable keeps no history.' };
  try {
    const stored = await history.record(capture, owner);
    return stored ?? { ...none, skipped: 'Recording is off in the history settings.' };
  } catch (error) {
    return {
      ...none,
      skipped: `The history could not store the window: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
