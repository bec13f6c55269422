import { describe, expect, it } from 'vitest';
import { emptyNotices, noticesReducer } from '../../../src/renderer/state/notices.js';

describe('notices reducer', () => {
  it('adds each text once, trims, skips empty ones, and keeps ids increasing', () => {
    const one = noticesReducer(emptyNotices, {
      type: 'notices/added',
      source: 'start',
      texts: ['A slow-log window was not closed.', '  ', 'A slow-log window was not closed.'],
    });
    expect(one.notices).toEqual([{ id: 1, text: 'A slow-log window was not closed.', source: 'start' }]);
    const two = noticesReducer(one, {
      type: 'notices/added',
      source: 'connect',
      texts: [' Restored: SET GLOBAL slow_query_log = OFF. ', 'A slow-log window was not closed.'],
    });
    expect(two.notices.map((notice) => [notice.id, notice.text, notice.source])).toEqual([
      [1, 'A slow-log window was not closed.', 'start'],
      [2, 'Restored: SET GLOBAL slow_query_log = OFF.', 'connect'],
    ]);
    // Nothing new: the same state object (no re-render).
    expect(
      noticesReducer(two, {
        type: 'notices/added',
        source: 'connect',
        texts: ['Restored: SET GLOBAL slow_query_log = OFF.'],
      }),
    ).toBe(two);
  });

  it('dismisses by id; a dismissed text reported again comes back with a new id', () => {
    const shown = noticesReducer(emptyNotices, { type: 'notices/added', source: 'start', texts: ['x', 'y'] });
    const dismissed = noticesReducer(shown, { type: 'notices/dismissed', id: 1 });
    expect(dismissed.notices.map((notice) => notice.text)).toEqual(['y']);
    const again = noticesReducer(dismissed, { type: 'notices/added', source: 'connect', texts: ['x'] });
    expect(again.notices.map((notice) => [notice.id, notice.text])).toEqual([
      [2, 'y'],
      [3, 'x'],
    ]);
  });
});
