// The capture history's retention: prune windows by age and count, delete windows and the classes left without one.
/*
 * Design note
 * -----------
 * - Retention: every write prunes windows recorded more than `retentionDays` ago (recorded, not
 *   ended: a log imported today from last year is kept as long as a live window of today) and
 *   all but the newest `maxWindows` (by end); a class without windows left goes too.
 * - Deletes go in batches of 500 ids (SQLite's bound-parameter limit).
 */
import type { Database } from 'sql.js';
import type { HistorySettings } from '../../core/history/index.js';
import { rows } from './history-rows.js';

export function deleteWindows(db: Database, ids: number[]): number {
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
export function prune(db: Database, settings: HistorySettings, now: Date): number {
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
