// Public surface of the slow-log module: streaming parser, digest and binary-string helpers.
export {
  createSlowLogParser,
  parseSlowLog,
  perlTruthy,
  type SlowLogEvent,
  type SlowLogParser,
  type SlowLogParserOptions,
  type SlowLogSkip,
} from './parser.js';
export {
  bucketIndex,
  bucketStatistics,
  createDigest,
  normalizeTimestamp,
  QUERY_TIME_BUCKETS,
  type Digest,
  type DigestClass,
  type DigestGlobal,
  type DigestOptions,
  type DigestReportOptions,
  type DigestResult,
  type DigestSegment,
  type ExecutionSummary,
  REPORTED_ATTRIBUTES,
  type FlagSummary,
  type MetricSummary,
} from './digest.js';
export { binaryToDisplay, bytesToBinaryString, utf8ToBinaryString } from './text.js';
