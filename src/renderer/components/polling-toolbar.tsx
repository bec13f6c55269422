// The toolbar of a polled view: Pause/Resume, the interval, Poll now, and a status line (live, paused, or
// paused while reconnecting, then what the caller says about the last snapshot).
import type { ReactNode } from 'react';
import { pollIntervals, type Polling } from '../state/polling.js';

export function PollingToolbar<T>({
  polling,
  linkUp,
  label,
  intervalLabel,
  testIdPrefix,
  status,
}: {
  polling: Polling<T>;
  linkUp: boolean;
  /** The toolbar's accessible name. */
  label: string;
  /** The interval select's accessible name. */
  intervalLabel: string;
  /** `<prefix>-pause`, `<prefix>-interval`, `<prefix>-status`. */
  testIdPrefix: string;
  /** What to say about the last snapshot, after the live/paused state. */
  status: ReactNode;
}) {
  const { paused, setPaused, intervalSeconds, setIntervalSeconds, pollNow } = polling;
  return (
    <div className="plan__toolbar" role="toolbar" aria-label={label}>
      <button
        type="button"
        className="button button--small"
        onClick={() => setPaused((value) => !value)}
        aria-pressed={paused}
        data-testid={`${testIdPrefix}-pause`}
      >
        {paused ? 'Resume' : 'Pause'}
      </button>
      <label className="locks__interval">
        every
        <select
          aria-label={intervalLabel}
          value={intervalSeconds}
          onChange={(event) => setIntervalSeconds(Number(event.target.value))}
          data-testid={`${testIdPrefix}-interval`}
        >
          {pollIntervals.map((seconds) => (
            <option key={seconds} value={seconds}>
              {seconds} s
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="button button--small" onClick={() => void pollNow()}>
        Poll now
      </button>
      <span className="status-bar__muted" data-testid={`${testIdPrefix}-status`}>
        {paused ? 'paused' : linkUp ? 'live' : 'paused: reconnecting'}
        {status}
      </span>
    </div>
  );
}
