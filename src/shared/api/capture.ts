// API area: live capture (performance_schema digests, mysql.slow_log, slow-log windows) and slow-log file jobs.

import { z } from 'zod';
import {
  digestDeltaOrders,
  type DigestDelta,
  type LatencyBucket,
  type SlowLogWindowPlan,
  type WorkloadTimeline,
} from '../../core/capture/index.js';
import type { DigestResult } from '../../core/slowlog/index.js';
import { productionConfirmationField } from './profiles.js';
import { recordField, type HistoryRecordReply } from './history.js';

const connectionId = z.string().min(1);
const deltaOrder = z.enum(digestDeltaOrders);
const orderBy = z.string().regex(/^[A-Za-z_]+:(?:sum|min|max|avg|cnt)$/);
const cursorSchema = z.object({ position: z.number().int().min(0), anchor: z.string().nullable() });

export const captureSnapshotSchema = z.object({
  connectionId,
  /** Row limit of the bounded snapshot query (default 10000). */
  maxRows: z.number().int().positive().max(1_000_000).optional(),
});

export const captureDeltaSchema = z.object({
  connectionId,
  fromSnapshotId: z.string().min(1),
  /** Omitted: take a new snapshot now. */
  toSnapshotId: z.string().min(1).optional(),
  orderBy: deltaOrder.optional(),
  limit: z.number().int().positive().optional(),
  maxRows: z.number().int().positive().max(1_000_000).optional(),
  /** Store this delta as a finished capture window in the history (the whole live window; not each step). */
  record: recordField,
  /** The window's label in the history (default `N s window`). */
  label: z.string().min(1).max(200).optional(),
});

export const captureWindowStartSchema = z.object({
  connectionId,
  /** Row limit of each snapshot of the window (default 10000). */
  maxRows: z.number().int().positive().max(1_000_000).optional(),
});

export const captureWindowPollSchema = z.object({
  connectionId,
  windowId: z.string().min(1),
  orderBy: deltaOrder.optional(),
  limit: z.number().int().positive().optional(),
});

export const captureWindowEndSchema = z.object({
  connectionId,
  windowId: z.string().min(1),
  /** Store the window (as of its last poll) in the history; default true. */
  record: recordField,
  /** The window's label in the history (default `N s window`). */
  label: z.string().min(1).max(200).optional(),
});

export const captureSlowLogTableSchema = z.object({
  connectionId,
  /** Continue after a previous read; omitted: from the first row. `fromEnd`: only rows written after now. */
  cursor: cursorSchema.optional(),
  fromEnd: z.boolean().optional(),
  maxRows: z.number().int().positive().max(10_000_000).optional(),
  orderBy: orderBy.optional(),
  limit: z.number().int().positive().optional(),
  /** Store this read as a window in the history. */
  record: recordField,
});

export const captureHistogramSchema = z.object({
  connectionId,
  /** SCHEMA_NAME of the digest row (null: statements run without a default database). */
  schema: z.string().nullable(),
  digest: z.string().regex(/^[0-9a-f]{32,64}$/i),
});

export const captureWindowPlanSchema = z.object({
  connectionId,
  longQueryTime: z.number().min(0).max(3600).optional(),
});

export const captureSlowLogWindowSchema = z.object({
  connectionId,
  seconds: z.number().positive().max(86_400),
  longQueryTime: z.number().min(0).max(3600).optional(),
  /** The user saw the SQL of `capture.slowLogWindowPlan` and agreed. */
  consent: z.literal(true),
  /** Production profiles: the profile name the user typed. */
  productionConfirmation: productionConfirmationField,
  orderBy: orderBy.optional(),
  limit: z.number().int().positive().optional(),
  /** Store the window in the history (default true; the history settings can turn recording off). */
  record: recordField,
});

export const digestStartSchema = z.object({
  paths: z.array(z.string().min(1)).min(1),
  /**
   * `top`: the job's result carries the classes as compact Top queries rows (`TopClass`, about a
   * third of the JSON of full `DigestClass`es, which matters at 100k classes). Default `classes`.
   */
  view: z.enum(['classes', 'top']).optional(),
  orderBy: orderBy.optional(),
  limit: z.number().int().positive().optional(),
  /** Store the digest as a window in the history (default false). */
  record: recordField,
  /** With `record`: the connection whose profile the log belongs to (its production flag sets the sample policy). */
  connectionId: connectionId.optional(),
});

export const jobRefSchema = z.object({ jobId: z.string().min(1) });

export const captureSchemas = {
  'capture.snapshot': captureSnapshotSchema,
  'capture.delta': captureDeltaSchema,
  'capture.windowStart': captureWindowStartSchema,
  'capture.windowPoll': captureWindowPollSchema,
  'capture.windowEnd': captureWindowEndSchema,
  'capture.slowLogTable': captureSlowLogTableSchema,
  'capture.histogram': captureHistogramSchema,
  'capture.slowLogWindowPlan': captureWindowPlanSchema,
  'capture.slowLogWindow': captureSlowLogWindowSchema,
  'digest.start': digestStartSchema,
  'job.status': jobRefSchema,
  'job.cancel': jobRefSchema,
} as const;

/** A stored snapshot. */
export interface CaptureSnapshotReply {
  snapshotId: string;
  takenAt: string;
  rows: number;
  truncated: boolean;
}

/** An incremental mysql.slow_log read. */
export interface SlowLogTableReply extends DigestResult {
  /** With `record` (a window: always): what the history stored. */
  recorded?: HistoryRecordReply;
  source: { table: 'mysql.slow_log'; rowsRead: number; ownRowsSkipped: number };
  cursor: z.infer<typeof cursorSchema>;
  reset: boolean;
  complete: boolean;
  /** Statements per time bucket by `start_time` (rows of this read). */
  timeline: WorkloadTimeline;
  /** When the read found no rows: where the server writes its slow log (why the table is empty). */
  logging?: {
    slowQueryLog: boolean;
    logOutput: string;
    longQueryTime: number;
    file: string | null;
  };
}

/** Progress of a job; fields depend on the job kind. */
export interface JobProgressReply {
  elapsedMs: number;
  bytesRead?: number;
  totalBytes?: number;
  events?: number;
  eventsPerSecond?: number;
  totalMs?: number;
  /** Jobs over a list (index proof): items done of the total. */
  done?: number;
  total?: number;
  /** SQL file analysis (sqlFile.analyze): findings and statement errors so far. */
  findings?: number;
  errors?: number;
}

/**
 * `job.status`: `result` is a `SlowLogFileResult` plus `timeline: WorkloadTimeline | null` (digest.start;
 * with `view: 'top'` its `classes` are `TopClass` rows) or a `SlowLogTableReply` plus plan (slow-log window).
 * Both carry `recorded: HistoryRecordReply` when the window was offered to the history. */
export interface JobStatusReply {
  jobId: string;
  kind: string;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  progress: JobProgressReply;
  result?: unknown;
  error?: { code: string; message: string; hint?: string };
}

export interface CaptureApi {
  /** Read the digest counters now (performance_schema must be ON). */
  'capture.snapshot'(request: z.input<typeof captureSnapshotSchema>): Promise<CaptureSnapshotReply>;
  /** What ran between two snapshots, ranked, with pt-query-digest fingerprints. */
  'capture.delta'(
    request: z.input<typeof captureDeltaSchema>,
  ): Promise<DigestDelta & { recorded?: HistoryRecordReply }>;
  /**
   * Start a polling window: the first snapshot, kept with the window's accumulator in the service
   * (at most 8 windows). Polling is what keeps a window exact when digest rows are reset meanwhile.
   */
  'capture.windowStart'(
    request: z.input<typeof captureWindowStartSchema>,
  ): Promise<{ windowId: string; takenAt: string }>;
  /** Take a snapshot now, add it to the window, and return the window so far (as `capture.delta`). */
  'capture.windowPoll'(request: z.input<typeof captureWindowPollSchema>): Promise<DigestDelta>;
  /**
   * Forget a window (false when it was gone already). A window that was polled at least once is
   * stored in the history first (as of its last poll), unless `record: false`.
   */
  'capture.windowEnd'(
    request: z.input<typeof captureWindowEndSchema>,
  ): Promise<{ ended: boolean; recorded?: HistoryRecordReply }>;
  /** Read mysql.slow_log (log_output=TABLE) incrementally into pt-query-digest classes. */
  'capture.slowLogTable'(request: z.input<typeof captureSlowLogTableSchema>): Promise<SlowLogTableReply>;
  /** The latency histogram of one digest since it was first seen (MySQL >= 8.0.1). */
  'capture.histogram'(request: z.input<typeof captureHistogramSchema>): Promise<{ buckets: LatencyBucket[] }>;
  /** The exact SET GLOBAL statements a slow-log window would run and restore (changes nothing). */
  'capture.slowLogWindowPlan'(request: z.input<typeof captureWindowPlanSchema>): Promise<SlowLogWindowPlan>;
  /** With consent: turn the slow log on for `seconds`, restore, digest the window. A job. */
  'capture.slowLogWindow'(
    request: z.input<typeof captureSlowLogWindowSchema>,
  ): Promise<{ jobId: string; plan: SlowLogWindowPlan }>;
  /** Digest slow-log files in the background; poll `job.status` for progress. */
  'digest.start'(request: z.input<typeof digestStartSchema>): Promise<{ jobId: string }>;
  'job.status'(request: z.input<typeof jobRefSchema>): Promise<JobStatusReply>;
  /** Cancel a job; a slow-log window ends early, restores the settings and is still digested. */
  'job.cancel'(request: z.input<typeof jobRefSchema>): Promise<JobStatusReply>;
}
