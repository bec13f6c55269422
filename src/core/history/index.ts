// Public surface of the history module: stored capture windows, per-class rows, trends and markers.
export {
  DEFAULT_HISTORY_SETTINGS,
  historySources,
  samplePolicies,
  type ClassTrend,
  type HistoryClassRow,
  type HistoryExportRow,
  type HistoryPoint,
  type HistorySettings,
  type HistorySource,
  type HistoryWindow,
  type SamplePolicy,
  type TrendMarkers,
} from './types.js';
export {
  buildTrends,
  DEFAULT_REGRESSION_THRESHOLD,
  DEFAULT_SERIES_WINDOWS,
  historyRowsFromTopClasses,
  median,
  pointFromRow,
  sampleFor,
  samplePolicyFor,
  trendMarkers,
  type TrendInput,
} from './model.js';
export { captureFromDelta, captureFromDigest, isoTimestamp, type CaptureWindow } from './record.js';
export { historyCsvColumns, historyRowsToCsv } from './export.js';
