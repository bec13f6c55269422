// The Modes panel: the server's sql_mode (GLOBAL vs SESSION, risks, variable defaults) and the upgrade view.
import { useEffect, useRef, useState } from 'react';
import type { AdvisorApi } from '../../shared/api.js';
import type { Listen } from '../../shared/events.js';
import { useJobEvents } from '../state/job.js';
import type {
  CapturedClass,
  ModeScope,
  SqlModeView,
  UpgradeClassesReport,
  UpgradeReport,
} from '../../core/sqlmode/views.js';
import type { DigestResult } from '../../core/slowlog/digest.js';
import { formatCount } from '../plan-view.js';
import { AdvisorError, type ErrorCode } from '../../shared/errors.js';
import { ErrorBox, toShownError, type ShownError } from './error-box.js';
import { ChooseFileButton, fileRef } from './choose-file-button.js';
import type { ChosenFile } from '../../shared/api/files.js';

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

/** What the upgrade view checks: the editor's statements, or captured classes from one of two sources. */
type UpgradeSource = 'editor' | 'digest' | 'slowlog';

type UpgradeResult =
  | { kind: 'statements'; report: UpgradeReport }
  | { kind: 'classes'; report: UpgradeClassesReport; from: string };

const sourceLabels: Record<UpgradeSource, string> = {
  editor: 'the editor’s statements',
  digest: 'captured classes: performance_schema digests',
  slowlog: 'captured classes: a slow log file',
};

/** Props of {@link ModesPanel}. */
export interface ModesPanelProps {
  api: AdvisorApi;
  /** Job progress events (a slow-log file is digested as a job). */
  listen: Listen;
  connectionId: string | null;
  /** The editor tab's text (the statements the upgrade view checks). */
  getSql(): string;
  schemaSql: string;
  /** A schema file loaded for offline work (used instead of schemaSql). */
  schemaId?: string | undefined;
}

/** Server view (connected) and upgrade view (always). */
export function ModesPanel({ api, listen, connectionId, getSql, schemaSql, schemaId }: ModesPanelProps) {
  const { follow } = useJobEvents(listen);
  const [view, setView] = useState<Load<SqlModeView>>({ status: 'idle' });
  const [upgrade, setUpgrade] = useState<Load<UpgradeResult>>({ status: 'idle' });
  const [target, setTarget] = useState(1);
  const [sqlMode, setSqlMode] = useState('');
  const [source, setSource] = useState<UpgradeSource>('editor');
  const [capture, setCapture] = useState<{ snapshotId: string; takenAt: string } | null>(null);
  const [slowLogPath, setSlowLogPath] = useState('');
  /** The slow log picked with "Choose file…" (an opaque reference; the field shows its name). */
  const [slowLogChosen, setSlowLogChosen] = useState<ChosenFile | null>(null);
  const [progress, setProgress] = useState('');
  const cancelled = useRef(false);
  useEffect(
    () => () => {
      cancelled.current = true;
    },
    [],
  );

  async function loadView() {
    if (!connectionId) return;
    setView({ status: 'running' });
    try {
      setView({ status: 'done', value: await api['sqlmode.view']({ connectionId }) });
    } catch (error) {
      setView({ status: 'failed', error: toShownError(error) });
    }
  }

  async function startCapture() {
    if (!connectionId) return;
    try {
      const snapshot = await api['capture.snapshot']({ connectionId });
      setCapture({ snapshotId: snapshot.snapshotId, takenAt: snapshot.takenAt });
      setUpgrade({ status: 'idle' });
    } catch (error) {
      setUpgrade({ status: 'failed', error: toShownError(error) });
    }
  }

  /** The performance_schema classes that ran since the snapshot (sample text where the server keeps it). */
  async function digestClasses(): Promise<{ classes: CapturedClass[]; from: string }> {
    if (!connectionId || !capture) throw new AdvisorError('INVALID_INPUT', 'Start a capture first.');
    setProgress('Reading the digests that ran since the capture started…');
    const delta = await api['capture.delta']({ connectionId, fromSnapshotId: capture.snapshotId });
    const classes = [...delta.classes, ...(delta.overflow ? [delta.overflow] : [])].flatMap((entry) => {
      const sql = entry.sampleText ?? entry.digestText;
      return sql
        ? [
            {
              sql,
              fingerprint: entry.fingerprint?.fingerprint ?? entry.digestText ?? sql,
              count: entry.count,
            },
          ]
        : [];
    });
    return {
      classes,
      from: `performance_schema, ${Math.round(delta.windowSeconds)} s since the capture started`,
    };
  }

  /** The classes of a slow log file, digested in the background with progress. */
  async function slowLogClasses(): Promise<{ classes: CapturedClass[]; from: string }> {
    const path = slowLogPath.trim();
    if (!path) throw new AdvisorError('INVALID_INPUT', 'Enter the path of a slow log file on this machine.');
    const { jobId } = await api['digest.start']({ paths: [fileRef(path, slowLogChosen)] });
    // Progress comes as job events; the stream stops when the panel unmounts.
    const status = await follow(jobId, (update) => {
      if (update.state === 'running' && !cancelled.current)
        setProgress(`Digesting ${path}: ${formatCount(update.progress.events ?? 0)} events…`);
    });
    if (!status || cancelled.current) throw new AdvisorError('CANCELLED', 'Cancelled.');
    if (status.state === 'done') {
      const result = status.result as DigestResult | undefined;
      const classes = (result?.classes ?? []).map((entry) => ({
        sql: entry.example.sql,
        fingerprint: entry.fingerprint,
        count: entry.queryCount,
      }));
      return { classes, from: path };
    }
    throw new AdvisorError(
      (status.error?.code ?? 'INTERNAL') as ErrorCode,
      status.error?.message ?? `The digest job ${status.state}.`,
      status.error?.hint ? { hint: status.error.hint } : {},
    );
  }

  async function runUpgrade() {
    const picked = upgradeTargets[target] ?? upgradeTargets[1];
    const common = {
      target: { flavor: picked.flavor, version: picked.version },
      ...(sqlMode.trim() ? { sqlMode: sqlMode.trim() } : {}),
      ...(connectionId ? { connectionId } : schemaId ? { schemaId } : schemaSql.trim() ? { schemaSql } : {}),
    };
    setUpgrade({ status: 'running' });
    setProgress('');
    try {
      if (source === 'editor') {
        const report = await api['sqlmode.upgrade']({ sql: getSql(), ...common });
        setUpgrade({ status: 'done', value: { kind: 'statements', report } });
        return;
      }
      const { classes, from } = source === 'digest' ? await digestClasses() : await slowLogClasses();
      setProgress(`Checking ${formatCount(classes.length)} classes…`);
      const report = await api['sqlmode.upgradeClasses']({ classes, ...common });
      setUpgrade({ status: 'done', value: { kind: 'classes', report, from } });
    } catch (error) {
      setUpgrade({ status: 'failed', error: toShownError(error) });
    } finally {
      setProgress('');
    }
  }

  const runLabel =
    source === 'editor'
      ? 'Check the editor’s statements'
      : source === 'digest'
        ? 'Check captured classes'
        : 'Digest and check';
  const runDisabled = upgrade.status === 'running' || (source === 'digest' && (!connectionId || !capture));

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
        </div>
        <form
          className="section-head modes__source"
          onSubmit={(event) => {
            event.preventDefault();
            if (!runDisabled) void runUpgrade();
          }}
        >
          <label>
            Check{' '}
            <select
              aria-label="Statements to check"
              value={source}
              onChange={(event) => {
                setSource(event.target.value as UpgradeSource);
                setUpgrade({ status: 'idle' });
              }}
              data-testid="modes-source"
            >
              {(Object.keys(sourceLabels) as UpgradeSource[]).map((key) => (
                <option key={key} value={key}>
                  {sourceLabels[key]}
                </option>
              ))}
            </select>
          </label>
          {source === 'digest' && (
            <button
              type="button"
              className="button button--small"
              onClick={() => void startCapture()}
              disabled={!connectionId || upgrade.status === 'running'}
              title={
                connectionId
                  ? 'Read the statement digests now (read-only); what runs from now on is captured'
                  : 'Connect to a server first'
              }
              data-testid="modes-capture-start"
            >
              {capture ? 'Restart capture' : 'Start capture'}
            </button>
          )}
          {source === 'slowlog' && (
            <input
              aria-label="Slow log file path"
              placeholder="/var/lib/mysql/host-slow.log"
              className="modes__mode-input"
              spellCheck={false}
              value={slowLogPath}
              onChange={(event) => {
                setSlowLogPath(event.target.value);
                setSlowLogChosen(null);
              }}
              data-testid="modes-slowlog-path"
            />
          )}
          {source === 'slowlog' && (
            <ChooseFileButton
              api={api}
              purpose="slowlog"
              testId="modes-slowlog-choose"
              onError={(error) => setUpgrade({ status: 'failed', error })}
              onChosen={(file) => {
                setSlowLogPath(file.name);
                setSlowLogChosen(file);
              }}
            />
          )}
          <button
            type="submit"
            className="button button--small button--primary"
            disabled={runDisabled}
            data-testid="modes-upgrade-run"
          >
            {runLabel}
          </button>
        </form>
        {source === 'digest' && !connectionId && (
          <p className="empty-state__hint" data-testid="modes-capture-offline">
            Connect to a server with performance_schema ON to capture the statements it runs.
          </p>
        )}
        {source === 'digest' && connectionId && (
          <p className="empty-state__hint" data-testid="modes-capture-state">
            {capture
              ? `Capturing since ${new Date(capture.takenAt).toLocaleTimeString()}: let the workload run, then check the captured classes.`
              : 'Start a capture, let the application run its workload, then check every statement class it ran (with its execution count).'}
          </p>
        )}
        {upgrade.status === 'running' && progress && (
          <p className="empty-state__hint" role="status" data-testid="modes-capture-progress">
            {progress}
          </p>
        )}
        {upgrade.status === 'idle' && source === 'editor' && (
          <p className="empty-state__hint">
            Pick a target and check: every statement in the current editor tab that would fail or behave
            differently there is listed with the predicted error.
          </p>
        )}
        {upgrade.status === 'failed' && <ErrorBox error={upgrade.error} testId="modes-upgrade-error" />}
        {upgrade.status === 'done' && upgrade.value.kind === 'statements' && (
          <UpgradeView report={upgrade.value.report} />
        )}
        {upgrade.status === 'done' && upgrade.value.kind === 'classes' && (
          <UpgradeClassesView report={upgrade.value.report} from={upgrade.value.from} />
        )}
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
        <Scope
          title="SESSION"
          scope={view.session}
          fromClient={clientModes.filter(
            (name) =>
              view.session.modes.some((mode) => mode.name === name) &&
              !view.global.modes.some((mode) => mode.name === name),
          )}
        />
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

/**
 * Modes our own session has because of how Sargable's driver connects, not because of the server:
 * mysql2 sends the CLIENT_IGNORE_SPACE capability flag, and the server then adds IGNORE_SPACE to the
 * session's sql_mode. Applications get the GLOBAL value unless their client does the same.
 */
const clientModes = ['IGNORE_SPACE'];

function Scope({
  title,
  scope,
  fromClient = [],
}: {
  title: string;
  scope: ModeScope;
  fromClient?: string[];
}) {
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
            {fromClient.includes(mode.name) ? (
              <span
                className="chip chip--muted"
                title="Set by Sargable's connection (its driver asks for CLIENT_IGNORE_SPACE), not by the server"
                data-testid="modes-from-client"
              >
                this app's client
              </span>
            ) : (
              !mode.isDefault && <span className="chip chip--muted">not default</span>
            )}
          </li>
        ))}
        {scope.modes.length === 0 && <li>(empty: no modes set)</li>}
      </ul>
      {fromClient.length > 0 && (
        <p className="modes__diff" data-testid="modes-client-note">
          {fromClient.join(', ')} is in this session only because Sargable&apos;s driver connects with the
          CLIENT_IGNORE_SPACE flag; it is not the server&apos;s setting. Your applications&apos; sessions
          start from the GLOBAL value unless their client sets it too.
        </p>
      )}
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
      <UpgradeNotes notes={report.notes} />
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

function counted({ classes, events }: { classes: number; events: number }): string {
  return `${formatCount(classes)} ${classes === 1 ? 'class' : 'classes'} (${formatCount(events)} ${events === 1 ? 'execution' : 'executions'})`;
}

function UpgradeClassesView({ report, from }: { report: UpgradeClassesReport; from: string }) {
  const codes = Object.entries(report.byCode);
  return (
    <div data-testid="modes-upgrade-classes">
      <p className="modes__summary" data-testid="modes-upgrade-summary">
        {counted(report.total)} from {from}, under <code>{report.target.sqlMode || "''"}</code>:{' '}
        {counted(report.failing)} would fail, {counted(report.changing)} would change behaviour
        {codes.length > 0 &&
          ` (${codes.map(([code, count]) => `${code}: ${formatCount(count.events)} executions`).join(', ')})`}
        {report.parseErrors.classes > 0 && `; ${counted(report.parseErrors)} could not be parsed`}.
      </p>
      <UpgradeNotes notes={report.notes} />
      {report.total.classes === 0 && (
        <p className="empty-state__hint" data-testid="modes-upgrade-no-classes">
          No statement classes were captured. Let the workload run (or pick another file), then check again.
        </p>
      )}
      {report.items.length > 0 && (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Executions</th>
              <th scope="col">Outcome</th>
              <th scope="col">Rule</th>
              <th scope="col">Predicted</th>
              <th scope="col">Class</th>
            </tr>
          </thead>
          <tbody>
            {report.items.map((item, index) => (
              <tr key={index} data-testid="modes-upgrade-class">
                <td>{formatCount(item.count)}</td>
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
                <td title={item.sql}>
                  <code className="data-table__sql">{item.fingerprint}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** What the upgrade view could not check (unknown tables), shown under the summary. */
function UpgradeNotes({ notes }: { notes: readonly string[] }) {
  if (notes.length === 0) return null;
  return (
    <ul className="modes__notes" data-testid="modes-upgrade-notes">
      {notes.map((note) => (
        <li key={note} className="empty-state__hint">
          {note}
        </li>
      ))}
    </ul>
  );
}
