// The Top queries panel's history part: what the shown window's recording did, the trends of its classes, the selected class's history, and the history settings form.
/*
 * Design note: a sub-state of the panel's reducer (state/top-queries.ts delegates the `history/*`
 * actions here), so the capture hooks that already dispatch to the panel can say what the history
 * stored. `useTopHistory` asks the history API (shared/api/history.ts) for the trends once a window
 * was recorded, and for one class's windows when a class is selected; the settings form keeps its
 * fields as typed text until Save, where they are checked.
 */
import { useEffect } from 'react';
import type { ClassTrend, HistorySettings, HistoryWindow, SamplePolicy } from '../../core/history/index.js';
import type { AdvisorApi } from '../../shared/api.js';
import type { HistoryClassReply, HistoryRecordReply } from '../../shared/api/history.js';
import { toShownError, type ShownError } from '../components/error-box.js';

/** Series windows shown per class in the table (the sparklines) and in a class's details. */
export const TREND_WINDOWS = 20;
export const DETAIL_WINDOWS = 100;
/** Trends are asked for the current window's top classes by total time. */
export const TREND_CLASSES = 500;

export type HistorySettingsReply = HistorySettings & { file: string };

/** The settings form: numbers as typed, checked on Save. */
export interface SettingsDraft {
  enabled: boolean;
  retentionDays: string;
  maxWindows: string;
  production: SamplePolicy;
  other: SamplePolicy;
}

export interface TopHistoryState {
  /** What recording the shown window did (null: it was not offered to the history). */
  recorded: HistoryRecordReply | null;
  /** The series windows (oldest first; the last is the shown one) and each class's trend. */
  trends: { windows: HistoryWindow[]; byClass: Map<string, ClassTrend> } | null;
  trendsError: ShownError | null;
  /** The selected class's history (null: none loaded; `reply` null: the class was never stored). */
  detail: { classId: string; reply: HistoryClassReply | null } | null;
  detailError: ShownError | null;
  /** The settings dialog: open, its form, the stored settings, what Save or Clear did. */
  settingsOpen: boolean;
  settings: HistorySettingsReply | null;
  draft: SettingsDraft | null;
  settingsError: ShownError | null;
  settingsNote: string | null;
}

export type TopHistoryAction =
  | { type: 'history/reset' }
  | { type: 'history/recorded'; recorded: HistoryRecordReply | null }
  | { type: 'history/trends'; windows: HistoryWindow[]; classes: ClassTrend[] }
  | { type: 'history/trendsFailed'; error: ShownError }
  | { type: 'history/detail'; classId: string; reply: HistoryClassReply | null }
  | { type: 'history/detailFailed'; error: ShownError }
  | { type: 'history/settingsOpened' }
  | { type: 'history/settingsClosed' }
  | { type: 'history/settingsLoaded'; settings: HistorySettingsReply; note?: string }
  | { type: 'history/settingsEdited'; patch: Partial<SettingsDraft> }
  | { type: 'history/settingsFailed'; error: ShownError }
  | { type: 'history/cleared'; windowsDeleted: number };

export const initialTopHistory: TopHistoryState = {
  recorded: null,
  trends: null,
  trendsError: null,
  detail: null,
  detailError: null,
  settingsOpen: false,
  settings: null,
  draft: null,
  settingsError: null,
  settingsNote: null,
};

function draftOf(settings: HistorySettings): SettingsDraft {
  return {
    enabled: settings.enabled,
    retentionDays: String(settings.retentionDays),
    maxWindows: String(settings.maxWindows),
    production: settings.samples.production,
    other: settings.samples.other,
  };
}

export function topHistoryReducer(state: TopHistoryState, action: TopHistoryAction): TopHistoryState {
  switch (action.type) {
    case 'history/reset':
      return { ...state, recorded: null, trends: null, trendsError: null, detail: null, detailError: null };
    case 'history/recorded':
      return { ...state, recorded: action.recorded, trends: null, trendsError: null, detail: null };
    case 'history/trends':
      return {
        ...state,
        trends: {
          windows: action.windows,
          byClass: new Map(action.classes.map((trend) => [trend.classId, trend])),
        },
        trendsError: null,
      };
    case 'history/trendsFailed':
      return { ...state, trends: null, trendsError: action.error };
    case 'history/detail':
      return { ...state, detail: { classId: action.classId, reply: action.reply }, detailError: null };
    case 'history/detailFailed':
      return { ...state, detail: null, detailError: action.error };
    case 'history/settingsOpened':
      return { ...state, settingsOpen: true, settingsError: null, settingsNote: null };
    case 'history/settingsClosed':
      return { ...state, settingsOpen: false, draft: null, settingsError: null, settingsNote: null };
    case 'history/settingsLoaded':
      return {
        ...state,
        settings: action.settings,
        draft: draftOf(action.settings),
        settingsError: null,
        settingsNote: action.note ?? null,
      };
    case 'history/settingsEdited':
      return state.draft ? { ...state, draft: { ...state.draft, ...action.patch } } : state;
    case 'history/settingsFailed':
      return { ...state, settingsError: action.error, settingsNote: null };
    case 'history/cleared':
      return {
        ...state,
        trends: null,
        detail: null,
        recorded: null,
        settingsNote: `Cleared ${action.windowsDeleted} window${action.windowsDeleted === 1 ? '' : 's'}.`,
      };
  }
}

/** The form's values as a `history.setSettings` request, or the error to show. */
export function settingsRequest(draft: SettingsDraft):
  | ShownError
  | {
      enabled: boolean;
      retentionDays: number;
      maxWindows: number;
      samples: { production: SamplePolicy; other: SamplePolicy };
    } {
  const days = Number(draft.retentionDays);
  const windows = Number(draft.maxWindows);
  if (!Number.isInteger(days) || days < 0 || days > 36_500) {
    return { code: 'INVALID_INPUT', message: 'Keep windows for 0 to 36500 days (0: no age limit).' };
  }
  if (!Number.isInteger(windows) || windows < 0 || windows > 1_000_000) {
    return { code: 'INVALID_INPUT', message: 'Keep 0 to 1000000 windows (0: no count limit).' };
  }
  return {
    enabled: draft.enabled,
    retentionDays: days,
    maxWindows: windows,
    samples: { production: draft.production, other: draft.other },
  };
}

/** The shown window in the history (the last of the trend windows), for a class's scope. */
export function currentWindow(state: TopHistoryState): HistoryWindow | null {
  return state.trends?.windows.at(-1) ?? null;
}

type HistoryCalls = Pick<
  AdvisorApi,
  'history.trends' | 'history.class' | 'history.settings' | 'history.setSettings' | 'history.clear'
>;

/**
 * Asks the history for the trends once the shown window was recorded, and for the selected class's
 * windows; loads the settings when the dialog opens. Replies that arrive after the window or the
 * selection changed are dropped.
 */
export function useTopHistory(
  api: HistoryCalls,
  history: TopHistoryState,
  selected: string | null,
  dispatch: (action: TopHistoryAction) => void,
): {
  save(draft: SettingsDraft): Promise<void>;
  clearAll(): Promise<void>;
} {
  const windowId = history.recorded?.windowId ?? null;
  useEffect(() => {
    if (windowId === null) return;
    let stale = false;
    api['history.trends']({ windowId, seriesWindows: TREND_WINDOWS, limit: TREND_CLASSES }).then(
      (reply) =>
        !stale && dispatch({ type: 'history/trends', windows: reply.windows, classes: reply.classes }),
      (caught: unknown) => !stale && dispatch({ type: 'history/trendsFailed', error: toShownError(caught) }),
    );
    return () => {
      stale = true;
    };
  }, [api, windowId, dispatch]);

  const scope = currentWindow(history);
  const profile = scope ? (scope.profile ?? scope.server ?? undefined) : undefined;
  const source = scope?.source;
  useEffect(() => {
    if (selected === null || windowId === null || !source) return;
    let stale = false;
    api['history.class']({
      classId: selected,
      source,
      ...(profile ? { profile } : {}),
      seriesWindows: DETAIL_WINDOWS,
    }).then(
      (reply) => !stale && dispatch({ type: 'history/detail', classId: selected, reply }),
      (caught: unknown) => {
        if (stale) return;
        const error = toShownError(caught);
        if (error.code === 'NOT_FOUND') dispatch({ type: 'history/detail', classId: selected, reply: null });
        else dispatch({ type: 'history/detailFailed', error });
      },
    );
    return () => {
      stale = true;
    };
  }, [api, selected, windowId, profile, source, dispatch]);

  const open = history.settingsOpen;
  useEffect(() => {
    if (!open) return;
    let stale = false;
    api['history.settings']({}).then(
      (settings) => !stale && dispatch({ type: 'history/settingsLoaded', settings }),
      (caught: unknown) =>
        !stale && dispatch({ type: 'history/settingsFailed', error: toShownError(caught) }),
    );
    return () => {
      stale = true;
    };
  }, [api, open, dispatch]);

  return {
    async save(draft) {
      const request = settingsRequest(draft);
      if ('code' in request) {
        dispatch({ type: 'history/settingsFailed', error: request });
        return;
      }
      try {
        const saved = await api['history.setSettings'](request);
        dispatch({
          type: 'history/settingsLoaded',
          settings: saved,
          note:
            saved.pruned > 0
              ? `Saved. ${saved.pruned} old window${saved.pruned === 1 ? '' : 's'} pruned.`
              : 'Saved.',
        });
      } catch (caught) {
        dispatch({ type: 'history/settingsFailed', error: toShownError(caught) });
      }
    },
    async clearAll() {
      try {
        const { windowsDeleted } = await api['history.clear']({ all: true });
        dispatch({ type: 'history/cleared', windowsDeleted });
      } catch (caught) {
        dispatch({ type: 'history/settingsFailed', error: toShownError(caught) });
      }
    },
  };
}
