// The capture history service: record finished capture windows, list them, trends per class, settings, retention, clear.
/*
 * Design note
 * -----------
 * - One SQLite file (history-db.ts) in the config directory holds every window of every profile.
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
import type { Database, SqlValue } from 'sql.js';
import {
  buildTrends,
  DEFAULT_HISTORY_SETTINGS,
  historyRowsFromTopClasses,
  pointFromRow,
  samplePolicyFor,
  type CaptureWindow,
  type ClassTrend,
  type HistoryExportRow,
  type HistoryPoint,
  type HistorySettings,
  type HistorySource,
  type HistoryWindow,
  type SamplePolicy,
} from '../../core/history/index.js';
import type { HistoryRecordReply } from '../../shared/api/history.js';
import { AdvisorError } from '../../shared/errors.js';
import type { ConnectionTarget } from './connection.js';
import { HistoryDb } from './history-db.js';

/** Classes kept per window (most total time first). */
export const MAX_CLASSES_PER_WINDOW = 5000;

/** Who a window belongs to. */
export interface WindowOwner {
  profile: string | null;
  server: string | null;
  production: boolean;
}

/** Which windows a query is about. */
export interface HistoryScope {
  /** A profile name or a `host:port`. */
  profile?: string | undefined;
  source?: HistorySource | undefined;
  /** Windows that ended at or after this time (ISO 8601). */
  since?: string | undefined;
}

/** The reply of a trend query. */
export interface HistoryTrends {
  /** The series windows, oldest first; the last is the current window. Empty: no window in scope. */
  windows: HistoryWindow[];
  classes: ClassTrend[];
}

/** One class's history. */
export interface HistoryClass extends ClassTrend {
  /** The series windows (the class's points are aligned with them). */
  windows: HistoryWindow[];
  schemas: string[];
  /** The latest stored sample (per the policy its window was stored with), or null. */
  sample: string | null;
}

function rows(db: Database, sql: string, params: SqlValue[] = []): Record<string, SqlValue>[] {
  const statement = db.prepare(sql);
  try {
    statement.bind(params);
    const out: Record<string, SqlValue>[] = [];
    let names: string[] | undefined;
    while (statement.step()) {
      names ??= statement.getColumnNames();
      const values = statement.get();
      const row: Record<string, SqlValue> = {};
      for (let i = 0; i < names.length; i++) row[names[i]!] = values[i] ?? null;
      out.push(row);
    }
    return out;
  } finally {
    statement.free();
  }
}

const str = (value: SqlValue | undefined): string | null =>
  value === null || value === undefined ? null : String(value);
const num = (value: SqlValue | undefined): number | null =>
  value === null || value === undefined ? null : Number(value);

function toWindow(row: Record<string, SqlValue>): HistoryWindow {
  return {
    id: Number(row.id),
    source: String(row.source) as HistorySource,
    label: String(row.label),
    profile: str(row.profile),
    server: str(row.server),
    production: Number(row.production) === 1,
    start: String(row.start_at),
    end: String(row.end_at),
    recordedAt: String(row.recorded_at),
    events: Number(row.events),
    classes: Number(row.class_count),
    samples: String(row.samples) as SamplePolicy,
  };
}

function scopeWhere(scope: HistoryScope): { where: string; params: SqlValue[] } {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  if (scope.profile !== undefined) {
    clauses.push('(profile = ? OR server = ?)');
    params.push(scope.profile, scope.profile);
  }
  if (scope.source !== undefined) {
    clauses.push('source = ?');
    params.push(scope.source);
  }
  if (scope.since !== undefined) {
    clauses.push('end_at >= ?');
    params.push(scope.since);
  }
  return { where: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

function readSettings(db: Database): HistorySettings {
  const value = rows(db, "SELECT value FROM meta WHERE key = 'settings'")[0]?.value;
  if (typeof value !== 'string') return structuredClone(DEFAULT_HISTORY_SETTINGS);
  try {
    const parsed = JSON.parse(value) as Partial<HistorySettings>;
    return {
      ...DEFAULT_HISTORY_SETTINGS,
      ...parsed,
      samples: { ...DEFAULT_HISTORY_SETTINGS.samples, ...parsed.samples },
    };
  } catch {
    return structuredClone(DEFAULT_HISTORY_SETTINGS);
  }
}

function deleteWindows(db: Database, ids: number[]): number {
  if (ids.length === 0) return 0;
  for (let i = 0; i < ids.length; i += 500) {
    const batch = ids.slice(i, i + 500);
    const marks = batch.map(() => '?').join(',');
    db.run(`DELETE FROM stats WHERE window_id IN (${marks})`, batch);
    db.run(`DELETE FROM windows WHERE id IN (${marks})`, batch);
  }
  db.run('DELETE FROM classes WHERE id NOT IN (SELECT DISTINCT class_ref FROM stats)');
  return ids.length;
}

/** Prunes per the retention settings; returns how many windows went. */
function prune(db: Database, settings: HistorySettings, now: Date): number {
  const ids = new Set<number>();
  if (settings.retentionDays > 0) {
    const cutoff = new Date(now.getTime() - settings.retentionDays * 86_400_000).toISOString();
    for (const row of rows(db, 'SELECT id FROM windows WHERE recorded_at < ?', [cutoff]))
      ids.add(Number(row.id));
  }
  if (settings.maxWindows > 0) {
    for (const row of rows(db, 'SELECT id FROM windows ORDER BY end_at DESC, id DESC LIMIT -1 OFFSET ?', [
      settings.maxWindows,
    ]))
      ids.add(Number(row.id));
  }
  return deleteWindows(db, [...ids]);
}

function pointOf(row: Record<string, SqlValue>): HistoryPoint {
  return pointFromRow(Number(row.window_id), {
    count: Number(row.count),
    totalSeconds: Number(row.total_s),
    p95: num(row.p95_s),
    max: num(row.max_s),
    rowsExamined: num(row.rows_examined),
    firstSeen: str(row.first_seen),
    lastSeen: str(row.last_seen),
  });
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
    return this.db.read((db) => {
      const { where, params } = scopeWhere(scope);
      return rows(db, `SELECT * FROM windows ${where} ORDER BY end_at DESC, id DESC LIMIT ?`, [
        ...params,
        limit,
      ]).map(toWindow);
    });
  }

  /**
   * Trends: the last `seriesWindows` windows of the scope ending at `windowId` (default: the
   * newest), the top `limit` classes of that window by total time (or exactly `classIds`).
   * With `windowId`, the scope defaults to that window's profile and source.
   */
  async trends(
    query: HistoryScope & {
      windowId?: number | undefined;
      classIds?: readonly string[] | undefined;
      seriesWindows?: number | undefined;
      limit?: number | undefined;
      threshold?: number | undefined;
    },
  ): Promise<HistoryTrends> {
    return this.db.read((db) => {
      let scope: HistoryScope = query;
      let anchor: HistoryWindow | undefined;
      if (query.windowId !== undefined) {
        const found = rows(db, 'SELECT * FROM windows WHERE id = ?', [query.windowId])[0];
        if (!found)
          throw new AdvisorError(
            'NOT_FOUND',
            `No history window ${query.windowId} (it may have been pruned or cleared).`,
          );
        anchor = toWindow(found);
        scope = {
          profile: query.profile ?? anchor.profile ?? anchor.server ?? undefined,
          source: query.source ?? anchor.source,
          since: query.since,
        };
      }
      const { where, params } = scopeWhere(scope);
      let windows = rows(db, `SELECT * FROM windows ${where} ORDER BY end_at, id`, params).map(toWindow);
      if (anchor) {
        const at = windows.findIndex((window) => window.id === anchor.id);
        windows = at < 0 ? [anchor] : windows.slice(0, at + 1);
      }
      const current = windows[windows.length - 1];
      if (!current) return { windows: [], classes: [] };
      const candidates = query.classIds
        ? rows(
            db,
            `SELECT id, class_key, checksum, digest, fingerprint FROM classes WHERE class_key IN (${query.classIds.map(() => '?').join(',') || 'NULL'})`,
            [...query.classIds],
          )
        : rows(
            db,
            'SELECT c.id, c.class_key, c.checksum, c.digest, c.fingerprint FROM stats s JOIN classes c ON c.id = s.class_ref ' +
              'WHERE s.window_id = ? ORDER BY s.total_s DESC, c.class_key LIMIT ?',
            [current.id, Math.max(1, query.limit ?? 50)],
          );
      return this.trendsOf(db, windows, candidates, query);
    });
  }

  private trendsOf(
    db: Database,
    windows: HistoryWindow[],
    candidates: Record<string, SqlValue>[],
    query: { seriesWindows?: number | undefined; threshold?: number | undefined },
  ): HistoryTrends {
    const inScope = new Set(windows.map((window) => window.id));
    const keyOf = new Map(candidates.map((row) => [Number(row.id), String(row.class_key)]));
    const points = new Map<string, HistoryPoint[]>(candidates.map((row) => [String(row.class_key), []]));
    const refs = [...keyOf.keys()];
    for (let i = 0; i < refs.length; i += 500) {
      const batch = refs.slice(i, i + 500);
      for (const row of rows(
        db,
        `SELECT * FROM stats WHERE class_ref IN (${batch.map(() => '?').join(',')})`,
        batch,
      )) {
        if (!inScope.has(Number(row.window_id))) continue;
        points.get(keyOf.get(Number(row.class_ref))!)!.push(pointOf(row));
      }
    }
    return buildTrends({
      windows,
      points,
      classes: new Map(
        candidates.map((row) => [
          String(row.class_key),
          { checksum: str(row.checksum), digest: str(row.digest), fingerprint: String(row.fingerprint) },
        ]),
      ),
      ...(query.seriesWindows === undefined ? {} : { seriesWindows: query.seriesWindows }),
      ...(query.threshold === undefined ? {} : { threshold: query.threshold }),
    });
  }

  /**
   * One class over the last `seriesWindows` windows (default 100) of its scope (by default the
   * profile and source of the newest window it is in), markers for the scope's newest window.
   * NOT_FOUND when the class was never stored.
   */
  async classHistory(
    query: HistoryScope & {
      classId: string;
      seriesWindows?: number | undefined;
      threshold?: number | undefined;
    },
  ): Promise<HistoryClass> {
    const found = await this.db.read((db) => {
      const texts = rows(db, 'SELECT id FROM classes WHERE class_key = ?', [query.classId])[0];
      if (!texts) return null;
      const latest = rows(
        db,
        'SELECT s.sample, s.schemas, w.profile, w.server, w.source FROM stats s JOIN windows w ON w.id = s.window_id ' +
          'WHERE s.class_ref = ? ORDER BY w.end_at DESC, w.id DESC LIMIT 1',
        [Number(texts.id)],
      )[0];
      return latest ?? null;
    });
    if (!found) {
      throw new AdvisorError('NOT_FOUND', `No stored history for class ${query.classId}.`, {
        hint: 'Classes are stored when a capture window is recorded; `history.windows` lists what is stored.',
      });
    }
    const scope: HistoryScope = {
      profile: query.profile ?? str(found.profile) ?? str(found.server) ?? undefined,
      source: query.source ?? (String(found.source) as HistorySource),
      since: query.since,
    };
    const trends = await this.trends({
      ...scope,
      classIds: [query.classId],
      seriesWindows: query.seriesWindows ?? 100,
      threshold: query.threshold,
    });
    const trend = trends.classes[0];
    if (!trend)
      throw new AdvisorError('NOT_FOUND', `No stored history for class ${query.classId} in this scope.`);
    let schemas: string[] = [];
    try {
      schemas = JSON.parse(String(found.schemas)) as string[];
    } catch {
      schemas = [];
    }
    return { ...trend, windows: trends.windows, schemas, sample: str(found.sample) };
  }

  /** Flat rows for export (CSV/JSON), oldest window first. `classId` matches the class id, checksum or digest. */
  async exportRows(scope: HistoryScope & { classId?: string | undefined }): Promise<HistoryExportRow[]> {
    return this.db.read((db) => {
      const { where, params } = scopeWhere(scope);
      const clauses = where ? [where.replace(/^WHERE /, '')] : [];
      const all = [...params];
      if (scope.classId !== undefined) {
        clauses.push('(c.class_key = ? OR c.checksum = ? OR c.digest = ?)');
        all.push(scope.classId, scope.classId, scope.classId);
      }
      const sql =
        'SELECT w.id AS window_id, w.source, w.profile, w.server, w.start_at, w.end_at, c.class_key, c.checksum, c.digest, c.fingerprint, s.* ' +
        'FROM (SELECT * FROM windows) w JOIN stats s ON s.window_id = w.id JOIN classes c ON c.id = s.class_ref ' +
        (clauses.length > 0 ? `WHERE ${clauses.join(' AND ')} ` : '') +
        'ORDER BY w.end_at, w.id, s.total_s DESC';
      return rows(db, sql, all).map((row) => ({
        windowId: Number(row.window_id),
        source: String(row.source) as HistorySource,
        profile: str(row.profile),
        server: str(row.server),
        windowStart: String(row.start_at),
        windowEnd: String(row.end_at),
        classId: String(row.class_key),
        checksum: str(row.checksum),
        digest: str(row.digest),
        fingerprint: String(row.fingerprint),
        schemas: (JSON.parse(String(row.schemas)) as string[]).join(','),
        count: Number(row.count),
        totalSeconds: Number(row.total_s),
        p95: num(row.p95_s),
        max: num(row.max_s),
        lifetime: Number(row.lifetime) === 1,
        rowsExamined: num(row.rows_examined),
        rowsSent: num(row.rows_sent),
        lockSeconds: num(row.lock_s),
        firstSeen: str(row.first_seen),
        lastSeen: str(row.last_seen),
        sample: str(row.sample),
      }));
    });
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
