// The Locks panel's details that load on selection: rewrites of the waiting statement (NOWAIT / SKIP LOCKED, copy) and lock counts.
import { useEffect, useState } from 'react';
import type { AdvisorApi } from '../../shared/api.js';
import type { StatementRewrites } from '../../core/locks/snapshot.js';
import type { LockCount } from '../../core/locks/types.js';
import { copyText } from '../platform.js';
import { ErrorBox, toShownError, type ShownError } from './error-box.js';

type Loaded<T> = { state: 'loading' } | { state: 'done'; value: T } | { state: 'failed'; error: ShownError };

/** Rewrites of the waiting statement, asked for when it is selected (the server caches them per statement). */
export function Rewrites({ api, connectionId, sql }: { api: AdvisorApi; connectionId: string; sql: string }) {
  const [loaded, setLoaded] = useState<Loaded<StatementRewrites>>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    setLoaded({ state: 'loading' });
    api['locks.rewrites']({ connectionId, sql }).then(
      (value) => current && setLoaded({ state: 'done', value }),
      (caught: unknown) => current && setLoaded({ state: 'failed', error: toShownError(caught) }),
    );
    return () => {
      current = false;
    };
  }, [api, connectionId, sql]);

  if (loaded.state === 'loading')
    return (
      <p className="empty-state__hint" role="status" data-testid="locks-rewrites-loading">
        Computing NOWAIT / SKIP LOCKED rewrites…
      </p>
    );
  if (loaded.state === 'failed') return <ErrorBox error={loaded.error} testId="locks-rewrites-error" />;
  const result = loaded.value;
  return (
    <section className="locks__rewrites" aria-label="Rewrites" data-testid="locks-rewrites">
      <h3>Rewrites of the waiting statement</h3>
      {result.status === 'not-locking-read' && (
        <p className="empty-state__hint" data-testid="locks-rewrites-empty">
          Not a locking read: NOWAIT and SKIP LOCKED apply to SELECT … FOR UPDATE, FOR SHARE and LOCK IN SHARE
          MODE. Shorten the blocker&apos;s transaction instead, or see the blocker&apos;s batching advice.
        </p>
      )}
      {result.status === 'cannot-rewrite' && (
        <p className="modes__risk" role="note" data-testid="locks-rewrites-reason">
          ⚠ {result.reason}
        </p>
      )}
      {result.rewrites.map((rewrite) => (
        <RewriteBlock key={rewrite.kind} rewrite={rewrite} />
      ))}
      {result.unavailable.length > 0 && (
        <ul className="suggestion__notes" data-testid="locks-rewrites-unavailable">
          {result.unavailable.map((entry) => (
            <li key={entry.kind}>
              Not offered: <strong>{entry.kind}</strong>. {entry.reason}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function RewriteBlock({ rewrite }: { rewrite: StatementRewrites['rewrites'][number] }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy() {
    try {
      await copyText(rewrite.sql);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
    window.setTimeout(() => setCopied('idle'), 1500);
  }
  return (
    <figure className="code-block" data-testid="locks-rewrite" data-kind={rewrite.kind}>
      <figcaption className="code-block__head">
        <span>
          {rewriteLabels[rewrite.kind]}
          {rewrite.errorCode !== null && <span className="badge">ERROR {rewrite.errorCode} on conflict</span>}
          {!rewrite.recommended && <span className="badge badge--caution">not for this statement</span>}
        </span>
        <button
          type="button"
          className="button button--small"
          onClick={() => void copy()}
          aria-label={`Copy ${rewrite.kind}`}
        >
          {copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Copy failed' : 'Copy'}
        </button>
      </figcaption>
      <pre>
        <code>{rewrite.sql}</code>
      </pre>
      {rewrite.notes.length > 0 && (
        <ul className="suggestion__notes">
          {rewrite.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      {rewrite.snippet && (
        <details className="locks__snippet">
          <summary>Application code</summary>
          <pre>
            <code>{rewrite.snippet}</code>
          </pre>
        </details>
      )}
    </figure>
  );
}

const rewriteLabels: Record<StatementRewrites['rewrites'][number]['kind'], string> = {
  nowait: 'NOWAIT: fail at once',
  'skip-locked': 'SKIP LOCKED: take only unlocked rows',
  wait: 'WAIT n: bounded wait',
  'lock-wait-timeout': 'Session lock wait timeout',
};

/** The seed's grouped data_locks count for one blocker, on request (it walks every lock the transaction holds). */
export function LockCounts({
  api,
  connectionId,
  trxId,
}: {
  api: AdvisorApi;
  connectionId: string;
  trxId: string;
}) {
  const [loaded, setLoaded] = useState<Loaded<LockCount[]> | null>(null);
  useEffect(() => setLoaded(null), [trxId]);
  async function count() {
    setLoaded({ state: 'loading' });
    try {
      setLoaded({ state: 'done', value: await api['locks.counts']({ connectionId, trxIds: [trxId] }) });
    } catch (caught) {
      setLoaded({ state: 'failed', error: toShownError(caught) });
    }
  }
  return (
    <section className="locks__counts" aria-label="Record locks held" data-testid="locks-counts">
      <button
        type="button"
        className="button button--small"
        onClick={() => void count()}
        disabled={loaded?.state === 'loading'}
        data-testid="locks-count"
      >
        {loaded?.state === 'loading' ? 'Counting…' : 'Count record locks'}
      </button>
      {loaded?.state === 'failed' && <ErrorBox error={loaded.error} testId="locks-counts-error" />}
      {loaded?.state === 'done' &&
        (loaded.value.length === 0 ? (
          <p className="empty-state__hint">No record locks held.</p>
        ) : (
          <table className="data-table">
            <thead>
              <tr>
                <th>Table</th>
                <th>Index</th>
                <th>Record locks</th>
              </tr>
            </thead>
            <tbody>
              {loaded.value.map((row) => (
                <tr key={`${row.schema}.${row.table}.${row.index}`}>
                  <td>
                    {row.schema}.{row.table}
                  </td>
                  <td>{row.index ?? '—'}</td>
                  <td>{row.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </section>
  );
}
