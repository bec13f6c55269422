// The capture history's queries: windows in a scope, trends per class over windows, one class's history, the export rows.
/*
 * Design note
 * -----------
 * - Reads only: each function runs on one loaded database (HistoryDb.read); the service
 *   (history.ts) owns the writes.
 * - Trends: the series windows of a scope (with a `windowId`, the scope defaults to that window's
 *   profile and source), the top classes of the newest window by total time or exactly the asked
 *   ones; stats are read in batches of 500 class ids.
 */
import type { Database, SqlValue } from 'sql.js';
import {
  buildTrends,
  type ClassTrend,
  type HistoryExportRow,
  type HistoryPoint,
  type HistorySource,
  type HistoryWindow,
} from '../../core/history/index.js';
import { AdvisorError } from '../../shared/errors.js';
import type { HistoryDb } from './history-db.js';
import { num, pointOf, rows, scopeWhere, str, toWindow, type HistoryScope } from './history-rows.js';

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

/** A trend query (see trendsIn). */
export type TrendsQuery = HistoryScope & {
  windowId?: number | undefined;
  classIds?: readonly string[] | undefined;
  seriesWindows?: number | undefined;
  limit?: number | undefined;
  threshold?: number | undefined;
};

/** A class history query (see classHistoryOf). */
export type ClassHistoryQuery = HistoryScope & {
  classId: string;
  seriesWindows?: number | undefined;
  threshold?: number | undefined;
};

/** Windows in scope, newest first. */
export function windowsIn(db: Database, scope: HistoryScope, limit: number): HistoryWindow[] {
  const { where, params } = scopeWhere(scope);
  return rows(db, `SELECT * FROM windows ${where} ORDER BY end_at DESC, id DESC LIMIT ?`, [
    ...params,
    limit,
  ]).map(toWindow);
}

/**
 * Trends: the last `seriesWindows` windows of the scope ending at `windowId` (default: the
 * newest), the top `limit` classes of that window by total time (or exactly `classIds`).
 * With `windowId`, the scope defaults to that window's profile and source.
 */
export function trendsIn(db: Database, query: TrendsQuery): HistoryTrends {
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
      before: query.before,
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
  return trendsOf(db, windows, candidates, query);
}

function trendsOf(
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
export async function classHistoryOf(history: HistoryDb, query: ClassHistoryQuery): Promise<HistoryClass> {
  const found = await history.read((db) => {
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
    before: query.before,
  };
  const trends = await history.read((db) =>
    trendsIn(db, {
      ...scope,
      classIds: [query.classId],
      seriesWindows: query.seriesWindows ?? 100,
      threshold: query.threshold,
    }),
  );
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
export function exportRowsIn(
  db: Database,
  scope: HistoryScope & { classId?: string | undefined },
): HistoryExportRow[] {
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
}
