// API area: the capture history (stored windows per profile and source, trends per class, settings, clear).

import { z } from 'zod';
import {
  historySources,
  samplePolicies,
  type ClassTrend,
  type HistorySettings,
  type HistoryWindow,
  type SamplePolicy,
} from '../../core/history/index.js';

const source = z.enum(historySources);
const scope = {
  /** A profile's name, or the `host:port` of a connection made without a profile. */
  profile: z.string().min(1).max(300).optional(),
  source: source.optional(),
  /** Only windows that ended at or after this time (ISO 8601). */
  since: z.iso.datetime({ offset: true }).optional(),
  /** Only windows that ended before this time (ISO 8601). */
  before: z.iso.datetime({ offset: true }).optional(),
};
const classId = z.string().min(1).max(300);
const seriesWindows = z.number().int().min(1).max(1000);
/** "regressed ×N" from this factor on (default 2). */
const threshold = z.number().min(1).max(1000);

export const historyWindowsSchema = z.object({
  ...scope,
  limit: z.number().int().min(1).max(10_000).optional(),
});

export const historyTrendsSchema = z.object({
  ...scope,
  /** The current window (default: the newest of the scope); the scope defaults to its profile and source. */
  windowId: z.number().int().positive().optional(),
  /** Exactly these classes (TopClass ids); default: the current window's top `limit` by total time. */
  classIds: z.array(classId).max(5000).optional(),
  /** Windows in each series (default 20). */
  seriesWindows: seriesWindows.optional(),
  limit: z.number().int().min(1).max(5000).optional(),
  threshold: threshold.optional(),
});

export const historyClassSchema = z.object({
  ...scope,
  classId,
  /** Windows in the series (default 100). */
  seriesWindows: seriesWindows.optional(),
  threshold: threshold.optional(),
});

export const historySetSettingsSchema = z.object({
  enabled: z.boolean().optional(),
  retentionDays: z.number().int().min(0).max(36_500).optional(),
  maxWindows: z.number().int().min(0).max(1_000_000).optional(),
  samples: z
    .object({ production: z.enum(samplePolicies).optional(), other: z.enum(samplePolicies).optional() })
    .optional(),
});

export const historyClearSchema = z.object({
  ...scope,
  /** Must be true to clear everything (no scope given), so an empty request never wipes the history. */
  all: z.boolean().optional(),
});

export const historySchemas = {
  'history.windows': historyWindowsSchema,
  'history.trends': historyTrendsSchema,
  'history.class': historyClassSchema,
  'history.settings': z.object({}).optional(),
  'history.setSettings': historySetSettingsSchema,
  'history.clear': historyClearSchema,
} as const;

/** Optional on capture requests: store the finished window in the history. */
export const recordField = z.boolean().optional();

/** What recording a finished capture did (on capture replies and job results as `recorded`). */
export interface HistoryRecordReply {
  /** The stored window (for `history.trends({ windowId })`), or null when nothing was stored. */
  windowId: number | null;
  /** The sample policy it was stored with. */
  samples: SamplePolicy | null;
  classes: number;
  /** Classes beyond the per-window limit (the least total time), not stored. */
  omitted: number;
  /** Old windows the retention settings pruned in the same write. */
  pruned: number;
  /** Why nothing was stored: recording is off, or the error (the capture itself succeeded). */
  skipped?: string;
}

/** `history.trends`: the series windows (oldest first, the last is the current one) and one trend per class. */
export interface HistoryTrendsReply {
  windows: HistoryWindow[];
  classes: ClassTrend[];
}

/** `history.class`: one class over its scope's windows. */
export interface HistoryClassReply extends ClassTrend {
  windows: HistoryWindow[];
  schemas: string[];
  /** The latest stored sample, per the policy of its window (null: none kept). */
  sample: string | null;
}

export interface HistoryApi {
  /** Stored windows, newest first. */
  'history.windows'(request: z.input<typeof historyWindowsSchema>): Promise<{ windows: HistoryWindow[] }>;
  /** Top classes of a window with their series over the scope's last windows and their markers. */
  'history.trends'(request: z.input<typeof historyTrendsSchema>): Promise<HistoryTrendsReply>;
  /** One class's history (NOT_FOUND when it was never stored). */
  'history.class'(request: z.input<typeof historyClassSchema>): Promise<HistoryClassReply>;
  /** The settings and where the history file is. */
  'history.settings'(request?: Record<string, never>): Promise<HistorySettings & { file: string }>;
  /** Change settings; the new retention prunes at once. */
  'history.setSettings'(
    request: z.input<typeof historySetSettingsSchema>,
  ): Promise<HistorySettings & { file: string; pruned: number }>;
  /** Delete the windows in scope (`all: true` and no scope: everything). */
  'history.clear'(request: z.input<typeof historyClearSchema>): Promise<{ windowsDeleted: number }>;
}
