// The Export panel: accepted changes grouped by table with toggles, a read-only preview of the script and rollback, and Apply DDL of the script.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { AdvisorApi } from '../../shared/api.js';
import type { WorkspaceItem } from '../../core/workspace/index.js';
import { copyText } from '../platform.js';
import { CodeView } from './code-view.js';
import { ErrorBox, toShownError, type ShownError } from './error-box.js';
import { ChooseFileButton } from './choose-file-button.js';
import type { ChosenFile } from '../../shared/api/files.js';
import { ApplyDdlDialog, DdlOutcomeView, ddlStatements, type DdlOutcome } from './apply-ddl-dialog.js';

/** Props of {@link ExportPanel}. */
export interface ExportPanelProps {
  api: AdvisorApi;
  profileId: string;
  flavor: 'mysql' | 'mariadb' | 'percona';
  version: string;
  connectionId: string | null;
  dark: boolean;
  /** Bumped when the workspace changed elsewhere (Accept in Findings). */
  revision: number;
  /** The live connection's label (where Apply DDL runs); null offline. */
  where?: string | null;
  /** The profile name to type before Apply DDL on a production connection; null otherwise. */
  production?: string | null;
  /** Bumped by the command palette's Apply DDL: open the confirmation for the script. */
  applyRequest?: number;
}

type Variant = 'sql' | 'pt-osc' | 'gh-ost';

/** Accepted items by table; toggles accept/dismiss; preview of the script or its rollback. */
export function ExportPanel({
  api,
  profileId,
  flavor,
  version,
  connectionId,
  dark,
  revision,
  where = null,
  production = null,
  applyRequest = 0,
}: ExportPanelProps) {
  const [items, setItems] = useState<WorkspaceItem[] | null>(null);
  const [path, setPath] = useState('');
  const [variant, setVariant] = useState<Variant>('sql');
  const [rollback, setRollback] = useState(false);
  // The CLI's --split-online: new VIRTUAL columns INSTANT first, then their indexes with LOCK=NONE.
  const [splitOnline, setSplitOnline] = useState(false);
  // Accepted index drops: the later DROP step instead of the safe INVISIBLE / IGNORED step.
  const [dropStep, setDropStep] = useState(false);
  const [script, setScript] = useState<{
    text: string;
    warnings: string[];
    statements: string[];
    /** Accepted items the script leaves out, by item id: already applied on the server, or why not. */
    skipped: Map<string, { applied: boolean; reason: string }>;
  } | null>(null);
  // Bumped when an Apply finished: the script is generated again against the server's schema now, so
  // what was applied shows as applied and is never emitted again (issue 18 item 3).
  const [schemaRevision, setSchemaRevision] = useState(0);
  const [applying, setApplying] = useState(false);
  const [outcome, setOutcome] = useState<DdlOutcome | null>(null);
  const [applyNote, setApplyNote] = useState<string | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [copied, setCopied] = useState(false);

  const refresh = useCallback(async () => {
    try {
      const reply = await api['workspace.get']({ profileId });
      setItems(reply.workspace.items);
      setPath(reply.path);
      setError(null);
    } catch (caught) {
      setError(toShownError(caught));
    }
  }, [api, profileId]);

  useEffect(() => {
    void refresh();
  }, [refresh, revision]);

  const acceptedCount = items?.filter((item) => item.status === 'accepted').length ?? 0;
  useEffect(() => {
    if (items === null) return;
    let live = true;
    // The old script must not be applied while the new variant loads.
    setScript(null);
    api['export.preview']({
      profileId,
      flavor,
      version,
      variant,
      rollback,
      ...(splitOnline ? { splitOnline: true } : {}),
      ...(dropStep ? { dropStep: true } : {}),
      ...(connectionId ? { connectionId } : {}),
    }).then(
      (reply) =>
        live &&
        setScript({
          text: reply.script.text,
          warnings: reply.script.warnings,
          statements: ddlStatements(reply.script.statements.map((statement) => statement.sql)),
          skipped: new Map(
            reply.plan.skipped.map(({ item, reason, applied }) => [
              item.id,
              { applied: applied === true, reason },
            ]),
          ),
        }),
      (caught: unknown) => live && setError(toShownError(caught)),
    );
    return () => {
      live = false;
    };
  }, [
    api,
    profileId,
    flavor,
    version,
    variant,
    rollback,
    splitOnline,
    dropStep,
    connectionId,
    items,
    schemaRevision,
  ]);

  // An Apply that ran (all of it, or up to a failed statement) changed the schema: regenerate.
  const onOutcome = useCallback((next: DdlOutcome) => {
    setOutcome(next);
    if (next.state !== 'running') setSchemaRevision((value) => value + 1);
  }, []);

  // Only the plain SQL script can be applied here (pt-osc / gh-ost are bash scripts; the rollback drops).
  const applyBlocked = !connectionId
    ? 'Apply DDL needs a live connection to the server.'
    : variant !== 'sql' || rollback
      ? 'Only the SQL script can be applied (not the rollback or the pt-osc / gh-ost scripts: download and run those in a shell).'
      : !script || script.statements.length === 0
        ? 'Nothing to apply: accept a suggestion in the Findings panel first.'
        : null;
  // A request that cannot be served (once the script is loaded) says why instead of opening the dialog.
  useEffect(() => {
    if (applying && applyBlocked && script) {
      setApplying(false);
      setApplyNote(applyBlocked);
    }
  }, [applying, applyBlocked, script]);
  useEffect(() => {
    if (applyRequest > 0) {
      setApplyNote(null);
      setVariant('sql');
      setRollback(false);
      setApplying(true);
    }
  }, [applyRequest]);

  const byTable = useMemo(() => {
    const groups = new Map<string, WorkspaceItem[]>();
    for (const item of items ?? []) {
      if (item.suggestion.ddl.length === 0) continue;
      const list = groups.get(item.table) ?? [];
      list.push(item);
      groups.set(item.table, list);
    }
    return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [items]);

  async function toggle(item: WorkspaceItem, on: boolean) {
    try {
      const reply = on
        ? await api['workspace.accept']({ profileId, itemId: item.id })
        : await api['workspace.dismiss']({
            profileId,
            itemId: item.id,
            reason: 'Excluded in the Export panel',
          });
      setItems(reply.workspace.items);
    } catch (caught) {
      setError(toShownError(caught));
    }
  }

  function save() {
    if (!script) return;
    const blob = new Blob([script.text], { type: 'application/sql' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = `sargable-${rollback ? 'rollback' : variant}-${profileId.replace(/[^\w.-]+/g, '_')}.${variant === 'sql' ? 'sql' : 'sh'}`;
    document.body.append(link);
    link.click();
    link.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  if (items !== null && byTable.length === 0) {
    return (
      <div className="empty-state" data-testid="export-empty">
        {error && <ErrorBox error={error} testId="export-error" />}
        <p className="empty-state__title">Nothing to export yet</p>
        <p>
          Analyze a query, then choose <strong>Accept</strong> on an index suggestion in Findings. Accepted
          changes are combined here into one ALTER TABLE per table, with a rollback script.
        </p>
        <WorkspaceFile api={api} profileId={profileId} path={path} onLoaded={refresh} onError={setError} />
      </div>
    );
  }

  return (
    <div className="export" data-testid="export-panel-body">
      <aside className="export__items" aria-label="Changes">
        <p className="export__summary">
          {acceptedCount} of {byTable.reduce((sum, [, list]) => sum + list.length, 0)} changes included
        </p>
        {byTable.map(([table, list]) => (
          <fieldset key={table} className="export__table" data-testid="export-table">
            <legend>{table}</legend>
            {list.map((item) => (
              <label key={item.id} className="export__item" title={item.suggestion.ddl.join('\n')}>
                <input
                  type="checkbox"
                  checked={item.status === 'accepted'}
                  onChange={(event) => void toggle(item, event.target.checked)}
                  data-testid="export-toggle"
                />
                <span>
                  <strong>{item.suggestion.indexName ?? item.suggestion.kind}</strong>
                  <span className="export__kind">{item.suggestion.kind}</span>
                  {item.verification && (
                    <span
                      className={`badge ${item.verification.usesIndex ? 'badge--ok' : 'badge--caution'}`}
                      title={`EXPLAIN after: ${item.verification.after
                        .map((line) => `${line.table ?? '?'} ${line.type ?? '?'} ${line.key ?? 'no index'}`)
                        .join('; ')}`}
                      data-testid="export-verified"
                    >
                      verified{item.verification.verdict ? `: ${item.verification.verdict}` : ''}
                    </span>
                  )}
                  <SkippedBadge
                    skipped={item.status === 'accepted' ? script?.skipped.get(item.id) : undefined}
                  />
                </span>
              </label>
            ))}
          </fieldset>
        ))}
        {path && (
          <p className="export__path" title={path}>
            Saved automatically in the workspace file.
          </p>
        )}
        <WorkspaceFile api={api} profileId={profileId} path={path} onLoaded={refresh} onError={setError} />
      </aside>
      <section className="export__preview" aria-label="Script preview">
        <div className="export__toolbar">
          <div className="segmented segmented--small" role="tablist" aria-label="Script">
            <button
              type="button"
              role="tab"
              aria-selected={!rollback}
              className={!rollback ? 'is-active' : ''}
              onClick={() => setRollback(false)}
            >
              Script
            </button>
            <button
              type="button"
              role="tab"
              aria-selected={rollback}
              className={rollback ? 'is-active' : ''}
              onClick={() => setRollback(true)}
              data-testid="export-rollback"
            >
              Rollback
            </button>
          </div>
          <select
            aria-label="Variant"
            value={variant}
            onChange={(event) => setVariant(event.target.value as Variant)}
          >
            <option value="sql">SQL script</option>
            <option value="pt-osc">pt-online-schema-change</option>
            <option value="gh-ost">gh-ost</option>
          </select>
          {variant === 'sql' && !rollback && (
            <label
              className="export__option"
              title="Add new VIRTUAL generated columns first (INSTANT, metadata only), then index them in a second statement with LOCK=NONE, so writes never wait (the CLI's --split-online)"
            >
              <input
                type="checkbox"
                checked={splitOnline}
                onChange={(event) => setSplitOnline(event.target.checked)}
                data-testid="export-split-online"
              />{' '}
              Columns first, then indexes
            </label>
          )}
          {items?.some((item) => item.status === 'accepted' && item.suggestion.kind === 'drop-index') && (
            <label
              className="export__option"
              title="Accepted index drops: without this the script only hides them (INVISIBLE on MySQL 8, IGNORED on MariaDB 10.6+), the safe first step; with it, the DROP INDEX step, whose rollback re-creates the index"
            >
              <input
                type="checkbox"
                checked={dropStep}
                onChange={(event) => setDropStep(event.target.checked)}
                data-testid="export-drop-step"
              />{' '}
              Drop step (after hiding)
            </label>
          )}
          <span className="toolbar__spacer" />
          <button
            type="button"
            className="button button--small"
            disabled={!script}
            onClick={() =>
              void copyText(script?.text ?? '').then(() => {
                setCopied(true);
                window.setTimeout(() => setCopied(false), 1500);
              })
            }
            data-testid="export-copy"
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
          <button
            type="button"
            className="button button--small"
            disabled={!script}
            onClick={save}
            data-testid="export-save"
          >
            Save as…
          </button>
          <button
            type="button"
            className="button button--small"
            aria-disabled={applyBlocked ? true : undefined}
            disabled={outcome?.state === 'running'}
            title={
              applyBlocked ?? 'Run the script on the server (a write): shows the exact SQL and asks first'
            }
            onClick={() => {
              setApplyNote(null);
              if (!applyBlocked) setApplying(true);
            }}
            data-testid="export-apply"
          >
            Apply DDL…
          </button>
        </div>
        {error && <ErrorBox error={error} testId="export-error" />}
        {outcome && <DdlOutcomeView outcome={outcome} />}
        {applyNote && (
          <p className="export__warning" role="note" data-testid="export-apply-blocked">
            {applyNote}
          </p>
        )}
        {applying && !applyBlocked && connectionId && script && (
          <ApplyDdlDialog
            api={api}
            connectionId={connectionId}
            statements={script.statements}
            where={where ?? 'this server'}
            production={production}
            onOutcome={onOutcome}
            onClose={() => setApplying(false)}
          />
        )}
        {script?.warnings.map((warning) => (
          <p key={warning} className="export__warning" role="note">
            ⚠ {warning}
          </p>
        ))}
        <CodeView
          text={script?.text ?? '-- Loading…'}
          dark={dark}
          label={rollback ? 'Rollback script' : 'Export script'}
        />
      </section>
    </div>
  );
}

/** An accepted item the script leaves out: "applied" (it is on the server), or "not exported" with the reason. */
function SkippedBadge({ skipped }: { skipped: { applied: boolean; reason: string } | undefined }) {
  if (!skipped) return null;
  return skipped.applied ? (
    <span className="badge badge--ok" title={skipped.reason} data-testid="export-item-applied">
      applied
    </span>
  ) : (
    <span
      className="badge badge--caution"
      title={`Not in the script: ${skipped.reason}`}
      data-testid="export-item-skipped"
    >
      not exported
    </span>
  );
}

/** Open or save the workspace as a `.sargable.json` file (on this machine; corrupt or newer files are refused). */
function WorkspaceFile({
  api,
  profileId,
  path,
  onLoaded,
  onError,
}: {
  api: AdvisorApi;
  profileId: string;
  path: string;
  onLoaded(): Promise<void>;
  onError(error: ShownError | null): void;
}) {
  const [target, setTarget] = useState('');
  const [message, setMessage] = useState('');
  async function run(action: 'workspace.saveAs' | 'workspace.open', chosen?: ChosenFile) {
    const file = chosen?.ref ?? target.trim();
    if (!file) {
      onError({ code: 'INVALID_INPUT', message: 'Type the path of a .sargable.json file first.' });
      return;
    }
    try {
      const reply = await api[action]({ profileId, path: file });
      setMessage(action === 'workspace.open' ? `Opened ${reply.path}` : `Saved a copy to ${reply.path}`);
      onError(null);
      await onLoaded();
    } catch (caught) {
      onError(toShownError(caught));
    }
  }
  return (
    <div className="export__file" data-testid="workspace-file">
      <label htmlFor="workspace-file-path">Workspace file</label>
      <input
        id="workspace-file-path"
        placeholder={path || '/path/to/review.sargable.json'}
        value={target}
        onChange={(event) => setTarget(event.target.value)}
        data-testid="workspace-file-path"
      />
      <div className="export__file-actions">
        <button
          type="button"
          className="button button--small"
          onClick={() => void run('workspace.saveAs')}
          data-testid="workspace-save-as"
        >
          Save workspace as
        </button>
        <button
          type="button"
          className="button button--small"
          onClick={() => void run('workspace.open')}
          data-testid="workspace-open"
        >
          Open
        </button>
        <ChooseFileButton
          api={api}
          purpose="workspace-save"
          label="Save as…"
          testId="workspace-choose-save"
          onError={onError}
          onChosen={(file) => void run('workspace.saveAs', file)}
        />
        <ChooseFileButton
          api={api}
          purpose="workspace-open"
          label="Open…"
          testId="workspace-choose-open"
          onError={onError}
          onChosen={(file) => void run('workspace.open', file)}
        />
      </div>
      {message && (
        <p className="export__path" role="status" data-testid="workspace-file-status">
          {message}
        </p>
      )}
    </div>
  );
}
