// The history export as CSV (one line per class per window), the format `sargable history --format csv` writes.
import { csvField } from '../capture/top-classes.js';
import type { HistoryExportRow } from './types.js';

/** Columns of the CSV export, in order. */
export const historyCsvColumns = [
  'window_id',
  'source',
  'profile',
  'server',
  'window_start',
  'window_end',
  'class_id',
  'checksum',
  'digest',
  'fingerprint',
  'schemas',
  'count',
  'total_s',
  'avg_s',
  'p95_s',
  'max_s',
  'latency_lifetime',
  'rows_examined',
  'rows_sent',
  'lock_s',
  'first_seen',
  'last_seen',
  'sample',
] as const;

/** The rows as CSV (header line, CRLF line ends; texts guarded against spreadsheet formulas). */
export function historyRowsToCsv(rows: readonly HistoryExportRow[]): string {
  const lines = [historyCsvColumns.join(',')];
  for (const row of rows) {
    const fields: (string | number | boolean | null)[] = [
      row.windowId,
      row.source,
      row.profile,
      row.server,
      row.windowStart,
      row.windowEnd,
      row.classId,
      row.checksum,
      row.digest,
      row.fingerprint,
      row.schemas,
      row.count,
      row.totalSeconds,
      row.count > 0 ? row.totalSeconds / row.count : null,
      row.p95,
      row.max,
      row.lifetime,
      row.rowsExamined,
      row.rowsSent,
      row.lockSeconds,
      row.firstSeen,
      row.lastSeen,
      row.sample,
    ];
    lines.push(fields.map(csvField).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
