// The Modes panel: the server's sql_mode (GLOBAL vs SESSION, risks, variable defaults) and the upgrade view.
import { useState } from 'react';
import type { AdvisorApi } from '../../shared/api.js';
import type { ModeScope, SqlModeView, UpgradeReport } from '../../core/sqlmode/views.js';
import { ErrorBox, toShownError, type ShownError } from './error-box.js';

type Load<T> =
  | { status: 'idle' }
  | { status: 'running' }
  | { status: 'done'; value: T }
  | { status: 'failed'; error: ShownError };

/** Upgrade targets offered in the picker (flavor, version, label). */
export const upgradeTargets = [
  { flavor: 'mysql', version: '5.7.44', label: 'MySQL 5.7 defaults' },
  { flavor: 'mysql', version: '8.0.33', label: 'MySQL 8.0 defaults' },
  { flavor: 'mysql', version: '8.4.0', label: 'MySQL 8.4 defaults' },
  { flavor: 'mariadb', version: '10.11', label: 'MariaDB 10.11 defaults' },
  { flavor: 'mariadb', version: '11.4', label: 'MariaDB 11.4 defaults' },
] as const;

/** Props of {@link ModesPanel}. */
export interface ModesPanelProps {
  api: AdvisorApi;
  connectionId: string | null;
  /** The editor tab's text (the statements the upgrade view checks). */
  getSql(): string;
  schemaSql: string;
}

/** Server view (connected) and upgrade view (always). */
export function ModesPanel({ api, connectionId, getSql, schemaSql }: ModesPanelProps) {
  const [view, setView] = useState<Load<SqlModeView>>({ status: 'idle' });
  const [upgrade, setUpgrade] = useState<Load<UpgradeReport>>({ status: 'idle' });
  const [target, setTarget] = useState(1);
  const [sqlMode, setSqlMode] = useState('');

  async function loadView() {
    if (!connectionId) return;
    setView({ status: 'running' });
    try {
      setView({ status: 'done', value: await api['sqlmode.view']({ connectionId }) });
    } catch (error) {
      setView({ status: 'failed', error: toShownError(error) });
    }
  }

  async function runUpgrade() {
    const picked = upgradeTargets[target] ?? upgradeTargets[1];
    setUpgrade({ status: 'running' });
    try {
      const value = await api['sqlmode.upgrade']({
        sql: getSql(),
        target: { flavor: picked.flavor, version: picked.version },
        ...(sqlMode.trim() ? { sqlMode: sqlMode.trim() } : {}),
        ...(connectionId ? { connectionId } : schemaSql.trim() ? { schemaSql } : {}),
      });
      setUpgrade({ status: 'done', value });
    } catch (error) {
      setUpgrade({ status: 'failed', error: toShownError(error) });
    }
  }

  return (
    <div className="modes" data-testid="modes-panel-body">
      <section className="modes__section" aria-labelledby="modes-server-title">
        <div className="section-head">
          <h3 id="modes-server-title">Server view</h3>
          <button
            type="button"
            className="button button--small"
            onClick={() => void loadView()}
            disabled={!connectionId || view.status === 'running'}
            title={
              connectionId
                ? 'Read GLOBAL and SESSION sql_mode and related variables'
                : 'Connect to a server first'
            }
            data-testid="modes-load"
          >
            {view.status === 'done' ? 'Refresh' : 'Read server settings'}
          </button>
        </div>
        {!connectionId && (
          <p className="empty-state__hint" data-testid="modes-offline">
            Connect to a server to compare its GLOBAL and SESSION sql_mode with the version&rsquo;s defaults.
            The upgrade view below works offline.
          </p>
        )}
        {connectionId && view.status === 'idle' && (
          <p className="empty-state__hint">
            Choose “Read server settings” (read-only: SELECT @@sql_mode, SHOW VARIABLES).
          </p>
        )}
        {view.status === 'failed' && <ErrorBox error={view.error} testId="modes-error" />}
        {view.status === 'done' && <ServerView view={view.value} />}
      </section>
      <section className="modes__section" aria-labelledby="modes-upgrade-title">
        <div className="section-head">
          <h3 id="modes-upgrade-title">Upgrade view: what breaks on…</h3>
          <select
            aria-label="Target server"
            value={target}
            onChange={(event) => setTarget(Number(event.target.value))}
            data-testid="modes-target"
          >
            {upgradeTargets.map((option, index) => (
              <option key={option.label} value={index}>
                {option.label}
              </option>
            ))}
          </select>
          <input
            aria-label="sql_mode (optional)"
            placeholder="or a sql_mode, e.g. STRICT_TRANS_TABLES,NO_ZERO_DATE"
            className="modes__mode-input"
            spellCheck={false}
            value={sqlMode}
            onChange={(event) => setSqlMode(event.target.value)}
          />
          <button
            type="button"
            className="button button--small button--primary"
            onClick={() => void runUpgrade()}
            disabled={upgrade.status === 'running'}
            data-testid="modes-upgrade-run"
          >
            Check the editor&rsquo;s statements
          </button>
        </div>
        {upgrade.status === 'idle' && (
          <p className="empty-state__hint">
            Pick a target and check: every statement in the current editor tab that would fail or behave
            differently there is listed with the predicted error.
          </p>
        )}
        {upgrade.status === 'failed' && <ErrorBox error={upgrade.error} testId="modes-upgrade-error" />}
        {upgrade.status === 'done' && <UpgradeView report={upgrade.value} />}
      </section>
    </div>
  );
}

function ServerView({ view }: { view: SqlModeView }) {
  const changed = view.variables.filter((line) => line.differsFromDefault);
  return (
    <div className="modes__server" data-testid="modes-server">
      <p className="modes__default">
        Default for {view.defaultLabel}: <code>{view.defaultSqlMode || "''"}</code>
      </p>
      <div className="modes__scopes">
        <Scope title="GLOBAL" scope={view.global} />
        <Scope title="SESSION" scope={view.session} />
      </div>
      <details>
        <summary>
          Variables ({changed.length} differ from the default of {view.variables.length})
        </summary>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Variable</th>
              <th scope="col">Value</th>
              <th scope="col">Default</th>
              <th scope="col">Why it matters</th>
            </tr>
          </thead>
          <tbody>
            {view.variables.map((line) => (
              <tr key={line.name} className={line.differsFromDefault ? 'is-changed' : ''}>
                <td>
                  <code>{line.name}</code>
                </td>
                <td>{line.value ?? '—'}</td>
                <td>{line.default}</td>
                <td>{line.impact}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  );
}

function Scope({ title, scope }: { title: string; scope: ModeScope }) {
  return (
    <div className="modes__scope" data-testid={`modes-scope-${title.toLowerCase()}`}>
      <h4>
        {title}{' '}
        <span className={`badge ${scope.strict ? 'badge--ok' : 'badge--caution'}`}>
          {scope.strict ? 'strict' : 'not strict'}
        </span>
      </h4>
      <ul className="modes__list">
        {scope.modes.map((mode) => (
          <li key={mode.name} title={mode.meaning}>
            <code>{mode.name}</code>
            {!mode.isDefault && <span className="chip chip--muted">not default</span>}
          </li>
        ))}
        {scope.modes.length === 0 && <li>(empty: no modes set)</li>}
      </ul>
      {scope.differsFromDefault.removed.length > 0 && (
        <p className="modes__diff">Missing from the default: {scope.differsFromDefault.removed.join(', ')}</p>
      )}
      {scope.risks.map((risk) => (
        <p key={risk} className="modes__risk" role="note">
          ⚠ {risk}
        </p>
      ))}
    </div>
  );
}

function UpgradeView({ report }: { report: UpgradeReport }) {
  return (
    <div data-testid="modes-upgrade">
      <p className="modes__summary" data-testid="modes-upgrade-summary">
        {report.statements} statements under <code>{report.target.sqlMode || "''"}</code>: {report.failing}{' '}
        would fail, {report.changing} would change behaviour
        {Object.keys(report.byCode).length > 0 &&
          ` (${Object.entries(report.byCode)
            .map(([code, count]) => `${code} ×${count}`)
            .join(', ')})`}
        {report.parseErrors > 0 && `; ${report.parseErrors} could not be parsed`}.
      </p>
      {report.items.length > 0 && (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Outcome</th>
              <th scope="col">Rule</th>
              <th scope="col">Predicted</th>
              <th scope="col">Statement</th>
            </tr>
          </thead>
          <tbody>
            {report.items.map((item, index) => (
              <tr key={index} data-testid="modes-upgrade-item">
                <td>{item.index + 1}</td>
                <td>
                  <span className={`badge ${item.outcome === 'error' ? 'badge--error' : 'badge--caution'}`}>
                    {item.outcome}
                  </span>
                </td>
                <td>{item.rule}</td>
                <td>
                  {item.predictedError
                    ? `ERROR ${item.predictedError.code}: ${item.predictedError.message}`
                    : item.message}
                </td>
                <td>
                  <code className="data-table__sql">{item.sql}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
