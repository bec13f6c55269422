// Public surface of the capture module: performance_schema digest deltas, slow_log rows, slow-log windows.
export {
  computeDigestDelta,
  DigestDeltaAccumulator,
  type DigestReset,
  digestCounterColumns,
  digestDeltaOrders,
  isOwnDigest,
  isoTime,
  picosToMs,
  type CaptureNote,
  type DigestCounter,
  type DigestDelta,
  type DigestDeltaClass,
  type DigestDeltaOptions,
  type DigestDeltaOrder,
  type DigestRow,
  type DigestSnapshot,
  type PreparedRow,
  type PreparedSnapshot,
} from './digest-delta.js';
export {
  fingerprintFromDigestText,
  isTruncatedDigestText,
  mapDigestToFingerprint,
  statementFromDigestText,
  type DigestFingerprint,
  type FingerprintSource,
} from './digest-text.js';
export {
  epochToLogTimestamp,
  slowLogRowToEvent,
  timeToSeconds,
  type SlowLogTableRow,
} from './slow-log-row.js';
export {
  planSlowLogWindow,
  slowLogWindowVariables,
  withTableOutput,
  type SlowLogSettings,
  type SlowLogWindowOptions,
  type SlowLogWindowPlan,
} from './slow-log-window.js';
export { rebinLatency, type LatencyBucket, type LatencyHistogram } from './latency-histogram.js';
export { WindowHistogram, type DigestBucket } from './window-histogram.js';
export {
  createSlowLogTimelineScanner,
  parseLogTime,
  type SlowLogTimelineScanner,
} from './slowlog-timeline.js';
export {
  createTimeline,
  nextBucketWidth,
  type TimelineBuilder,
  type TimelineOptions,
  type WorkloadTimeline,
} from './timeline.js';
export {
  csvField,
  decadeLatencyHistogram,
  selectTopClasses,
  TOP_JSON_FORMAT,
  topClassesFromDelta,
  topClassesFromDigest,
  topClassesToCsv,
  topClassesToJson,
  topCsvColumns,
  topSortKeys,
  topSortValue,
  type TopClass,
  type TopClassList,
  type TopExecution,
  type TopLatency,
  type TopSortKey,
  type TopSourceKind,
} from './top-classes.js';
