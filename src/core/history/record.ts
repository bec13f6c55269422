// A finished capture (digest delta, mysql.slow_log read, slow-log file digest) as the window the history stores.
import type { DigestDelta } from '../capture/digest-delta.js';
import { topClassesFromDelta, topClassesFromDigest, type TopClass } from '../capture/top-classes.js';
import type { DigestResult } from '../slowlog/index.js';
import type { HistorySource } from './types.js';

/** A capture ready to be stored: where it came from, when, and its classes. */
export interface CaptureWindow {
  source: HistorySource;
  label: string;
  /** ISO 8601 UTC. */
  start: string;
  end: string;
  events: number;
  classes: TopClass[];
}

/**
 * A slow-log timestamp as ISO 8601 UTC, or null: ISO (`2026-01-02T03:04:05.123456Z`), the old
 * `260102  3:04:05` (MySQL 5.x, read as UTC) and `2026-01-02 03:04:05` (mysql.slow_log).
 */
export function isoTimestamp(text: string | null | undefined): string | null {
  if (!text) return null;
  const trimmed = text.trim();
  const old = /^(\d{2})(\d{2})(\d{2})\s+(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(trimmed);
  if (old) {
    const [, yy, mm, dd, h, mi, s, fraction] = old;
    const ms = fraction ? Math.round(Number(`0.${fraction}`) * 1000) : 0;
    return new Date(
      Date.UTC(2000 + Number(yy), Number(mm) - 1, Number(dd), Number(h), Number(mi), Number(s), ms),
    ).toISOString();
  }
  const sql = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}:?\d{2})?$/.exec(trimmed);
  if (sql) {
    const parsed = Date.parse(`${sql[1]}T${sql[2]}${sql[3] ?? 'Z'}`);
    return Number.isFinite(parsed) ? new Date(parsed).toISOString() : null;
  }
  return null;
}

/** A performance_schema window (the whole window's delta). */
export function captureFromDelta(delta: DigestDelta, label?: string): CaptureWindow {
  return {
    source: 'performance_schema',
    label: label ?? `${delta.windowSeconds} s window`,
    start: new Date(Date.parse(delta.from.takenAt)).toISOString(),
    end: new Date(Date.parse(delta.to.takenAt)).toISOString(),
    events: delta.totals.count,
    classes: topClassesFromDelta(delta),
  };
}

/**
 * A slow-log digest (mysql.slow_log or files). The window is the first to the last event; a log
 * without timestamps gets `now` for both.
 */
export function captureFromDigest(
  result: Pick<DigestResult, 'classes' | 'global'>,
  source: 'slow_log' | 'file',
  label: string,
  now: Date,
): CaptureWindow {
  const first = isoTimestamp(result.global.firstSeen);
  const last = isoTimestamp(result.global.lastSeen);
  const fallback = now.toISOString();
  const start = first ?? last ?? fallback;
  const end = last ?? first ?? fallback;
  return {
    source,
    label,
    start: start <= end ? start : end,
    end: start <= end ? end : start,
    events: result.global.events,
    classes: topClassesFromDigest(result),
  };
}
