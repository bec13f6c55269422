// Notices the services want the user to read: from `app.info` at start and `connection.open` /
// `profiles.connect` (e.g. "a slow-log window a crash left open was restored"), until dismissed.
/*
 * Design note: the notices come from several places (the start, every connect path), so they live in
 * one small store of their own, outside the workbench reducer: `addNotices` from any command, the
 * NoticeArea component shows them. The reducer is pure (tests/unit/renderer/notices.test.ts); the
 * same text is shown once while it is on screen, and a dismissed one comes back only if a later
 * start or connect reports it again.
 */
import { useSyncExternalStore } from 'react';

export interface Notice {
  id: number;
  text: string;
  /** Where it came from: the app's start (`app.info`) or a connect. */
  source: 'start' | 'connect';
}

export interface NoticesState {
  notices: Notice[];
  nextId: number;
}

export type NoticesAction =
  | { type: 'notices/added'; source: Notice['source']; texts: readonly string[] }
  | { type: 'notices/dismissed'; id: number };

export const emptyNotices: NoticesState = { notices: [], nextId: 1 };

export function noticesReducer(state: NoticesState, action: NoticesAction): NoticesState {
  switch (action.type) {
    case 'notices/added': {
      let { nextId } = state;
      const shown = new Set(state.notices.map((notice) => notice.text));
      const added: Notice[] = [];
      for (const raw of action.texts) {
        const text = raw.trim();
        if (text === '' || shown.has(text)) continue;
        shown.add(text);
        added.push({ id: nextId, text, source: action.source });
        nextId += 1;
      }
      return added.length === 0 ? state : { notices: [...state.notices, ...added], nextId };
    }
    case 'notices/dismissed':
      return { ...state, notices: state.notices.filter((notice) => notice.id !== action.id) };
  }
}

let current = emptyNotices;
const listeners = new Set<() => void>();

function dispatch(action: NoticesAction): void {
  const next = noticesReducer(current, action);
  if (next === current) return;
  current = next;
  for (const listener of listeners) listener();
}

/** Show what a service reported (nothing when `texts` is empty or absent). */
export function addNotices(source: Notice['source'], texts: readonly string[] | undefined): void {
  if (texts && texts.length > 0) dispatch({ type: 'notices/added', source, texts });
}

export function dismissNotice(id: number): void {
  dispatch({ type: 'notices/dismissed', id });
}

/** The notices on screen. */
export function useNotices(): Notice[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current.notices,
  );
}
