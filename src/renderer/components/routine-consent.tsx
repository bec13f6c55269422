// The Plan panel's way out of a refused EXPLAIN: name the routines, then explain allowing them.
import { useState } from 'react';

/**
 * Explain a refused statement anyway: first a confirmation that names every routine it calls and says
 * they run with the user's privileges while the server plans it.
 */
export function RoutineConsent({
  retry,
  onAllow,
}: {
  retry: { sql: string; routines: string[] };
  onAllow(sql: string): void;
}) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <button
        type="button"
        className="button button--small"
        onClick={() => setConfirming(true)}
        data-testid="plan-allow-routines"
      >
        I trust these functions: explain, allowing routine calls…
      </button>
    );
  }
  return (
    <div
      className="plan__consent"
      role="group"
      aria-label="Allow routine calls"
      data-testid="plan-routine-consent"
    >
      <p>
        The server may run {retry.routines.length === 1 ? 'this function' : 'these functions'} while it plans
        the statement, with your privileges:
      </p>
      <ul data-testid="plan-routine-names">
        {retry.routines.map((name) => (
          <li key={name}>
            <code>{name}</code>
          </li>
        ))}
      </ul>
      <p>
        Continue only if you trust what {retry.routines.length === 1 ? 'it does' : 'they do'}, and the
        functions of any view the statement reads (they are allowed too). The statement itself is not run.
      </p>
      <div className="plan__consent-actions">
        <button
          type="button"
          className="button button--small button--danger"
          onClick={() => onAllow(retry.sql)}
          data-testid="plan-allow-routines-confirm"
        >
          Explain and allow {retry.routines.length === 1 ? 'it' : 'them'}
        </button>
        <button type="button" className="button button--small" onClick={() => setConfirming(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
