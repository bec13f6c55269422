// Notices from the services (app start, connect): e.g. a slow-log window a crash left open was restored.
import { useEffect } from 'react';
import type { AdvisorApi } from '../../shared/api.js';
import { addNotices, dismissNotice, useNotices } from '../state/notices.js';

/** Loads the start notices (`app.info`) once and shows every notice until the user dismisses it. */
export function NoticeArea({ api }: { api: AdvisorApi }) {
  const notices = useNotices();
  useEffect(() => {
    api['app.info']().then(
      (info) => addNotices('start', info.notices),
      () => undefined,
    );
  }, [api]);
  if (notices.length === 0) return null;
  return (
    <div className="notice-area" role="status" aria-live="polite" data-testid="notice-area">
      {notices.map((notice) => (
        <div key={notice.id} className="notice-area__item" data-testid="notice">
          <span className="notice-area__text">{notice.text}</span>
          <button
            type="button"
            className="notice-area__dismiss"
            aria-label="Dismiss this notice"
            data-testid="notice-dismiss"
            onClick={() => dismissNotice(notice.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
