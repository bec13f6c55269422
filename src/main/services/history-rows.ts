// The capture history's SQL row helpers: run a query into row objects, map window and stat rows, the scope clause, the settings row.
/*
 * Design note
 * -----------
 * - Scope: a window belongs to a profile (its name, or null) and a server (`host:port`, or null
 *   for a file); a `profile` filter matches either. Trends are per scope and source.
 * - Settings are one JSON row in `meta`; a missing or unreadable row reads as the defaults, a
 *   partial one is completed from them.
 */
import type { Database, SqlValue } from 'sql.js';
import {
  DEFAULT_HISTORY_SETTINGS,
  pointFromRow,
  type HistoryPoint,
  type HistorySettings,
  type HistorySource,
  type HistoryWindow,
  type SamplePolicy,
} from '../../core/history/index.js';

/** Which windows a query is about. */
export interface HistoryScope {
  /** A profile name or a `host:port`. */
  profile?: string | undefined;
  source?: HistorySource | undefined;
  /** Windows that ended at or after this time (ISO 8601). */
  since?: string | undefined;
  /** Windows that ended before this time (ISO 8601). */
  before?: string | undefined;
}

export function rows(db: Database, sql: string, params: SqlValue[] = []): Record<string, SqlValue>[] {
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

export const str = (value: SqlValue | undefined): string | null =>
  value === null || value === undefined ? null : String(value);
export const num = (value: SqlValue | undefined): number | null =>
  value === null || value === undefined ? null : Number(value);

export function toWindow(row: Record<string, SqlValue>): HistoryWindow {
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

/** An ISO 8601 time as the stored form (UTC, `toISOString`), so times with an offset compare right as text. */
function instant(value: string): string {
  const parsed = Date.parse(value);
  return Number.isFinite(parsed) ? new Date(parsed).toISOString() : value;
}

export function scopeWhere(scope: HistoryScope): { where: string; params: SqlValue[] } {
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
    params.push(instant(scope.since));
  }
  if (scope.before !== undefined) {
    clauses.push('end_at < ?');
    params.push(instant(scope.before));
  }
  return { where: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

export function readSettings(db: Database): HistorySettings {
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

export function pointOf(row: Record<string, SqlValue>): HistoryPoint {
  return pointFromRow(Number(row.window_id), {
    count: Number(row.count),
    totalSeconds: Number(row.total_s),
    p95: num(row.p95_s),
    max: num(row.max_s),
    lifetime: Number(row.lifetime) === 1,
    rowsExamined: num(row.rows_examined),
    firstSeen: str(row.first_seen),
    lastSeen: str(row.last_seen),
  });
}
