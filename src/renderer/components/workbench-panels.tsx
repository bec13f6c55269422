// The bottom area: the panel tabs (Findings, Plan, Indexes, Top queries, Locks, Modes, Export, Run) and the shown panel.
import { optInRules } from '../../core/rules/index.js';
import { analyzeRequest, productionName, profileId } from '../session.js';
import type { useAnalysis } from '../state/analysis.js';
import { features, type Workbench } from '../state/context.js';
import { setOptInRule, suggestionActions } from '../state/suggestions.js';
import type { useTabs } from '../state/tabs.js';
import { activeAnalysis, liveOf, type PanelId, type WorkbenchState } from '../state/workbench.js';
import { itemsOfStatement, statementAt } from '../plan-view.js';
import { severityCounts, type ReportItem } from '../report-items.js';
import type { ShortcutKeys } from './app-commands.js';
import { ErrorBox } from './error-box.js';
import { ExportPanel } from './export-panel.js';
import { FindingsPanel } from './findings-panel.js';
import { IndexesPanel } from './indexes-panel.js';
import { LocksPanel } from './locks-panel.js';
import { ModesPanel } from './modes-panel.js';
import { PlanPanel } from './plan-panel.js';
import { RunPanel } from './run-panel.js';
import { SqlFilePanel } from './sql-file-panel.js';
import { TopQueriesPanel } from './top-queries-panel.js';

const panelList: { id: PanelId; label: string }[] = [
  { id: 'findings', label: 'Findings' },
  { id: 'plan', label: 'Plan' },
  ...(features.indexes ? [{ id: 'indexes' as const, label: 'Indexes' }] : []),
  ...(features.top ? [{ id: 'top' as const, label: 'Top queries' }] : []),
  ...(features.locks ? [{ id: 'locks' as const, label: 'Locks' }] : []),
  ...(features.modes ? [{ id: 'modes' as const, label: 'Modes' }] : []),
  ...(features.export ? [{ id: 'export' as const, label: 'Export' }] : []),
  ...(features.run ? [{ id: 'run' as const, label: 'Run' }] : []),
  ...(features.sqlFile ? [{ id: 'file' as const, label: 'SQL file' }] : []),
];

export function WorkbenchPanels({
  wb,
  state,
  keys,
  dark,
  linkUp,
  run,
  tabs,
  toggleRule,
}: {
  wb: Workbench;
  state: WorkbenchState;
  keys: ShortcutKeys;
  dark: boolean;
  linkUp: boolean;
  run: ReturnType<typeof useAnalysis>;
  tabs: ReturnType<typeof useTabs>;
  toggleRule(rule: string, disabled: boolean): void;
}) {
  const { api, store } = wb;
  const { session, panel, plan } = state;
  const analysis = activeAnalysis(state);
  const items = analysis.status === 'done' ? analysis.items : [];
  const live = liveOf(state);
  const flavor = live ? live.server.flavor : session.kind === 'offline' ? session.flavor : 'mysql';
  const version = live ? live.server.version : session.kind === 'offline' ? session.version : '8.0.33';
  return (
    <section className="panels" aria-label="Results">
      <div className="panels__tabs" role="tablist" aria-label="Panels">
        {panelList.map(({ id, label }) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`tab-${id}`}
            aria-selected={panel === id}
            aria-controls={`panel-${id}`}
            className={`panels__tab${panel === id ? ' is-active' : ''}`}
            onClick={() => store.dispatch({ type: 'panel/shown', panel: id })}
            data-testid={`panel-tab-${id}`}
          >
            {label}
            {id === 'findings' && analysis.status === 'done' && <FindingsCount items={analysis.items} />}
            {id === 'plan' && plan.status === 'done' && (
              <span className="panels__dot" aria-label="has a plan" />
            )}
          </button>
        ))}
      </div>
      <div
        className="panels__body"
        role="tabpanel"
        id={`panel-${panel}`}
        aria-labelledby={`tab-${panel}`}
        data-testid={`${panel}-panel`}
      >
        {panel === 'findings' &&
          (analysis.status === 'failed' ? (
            <div className="panels__error">
              <ErrorBox error={analysis.error} testId="analyze-error" />
            </div>
          ) : analysis.status === 'running' ? (
            <div className="empty-state" aria-busy="true">
              <p className="empty-state__title">Analyzing…</p>
            </div>
          ) : (
            <FindingsPanel
              items={items}
              analyzed={analysis.status === 'done'}
              stale={analysis.status === 'done' && analysis.stale}
              liveKeys={state.liveKeys}
              shortcut={keys.analyze}
              onReveal={(key) => {
                store.dispatch({ type: 'finding/selected', key });
                wb.editor()?.reveal(key);
              }}
              selectedKey={state.selectedKey}
              actions={suggestionActions(wb, state, dark)}
              rules={
                features.ruleToggles
                  ? {
                      disabled: state.disabledRules,
                      onDisable: (rule) => toggleRule(rule, true),
                      onEnable: (rule) => toggleRule(rule, false),
                    }
                  : undefined
              }
              optIn={{
                rules: optInRules.map((rule) => ({ ...rule, enabled: state.enabledRules.includes(rule.id) })),
                onChange: (rule, enabled) => {
                  void setOptInRule(wb, profileId(session), rule, enabled);
                  void run.analyze('all', { showPanel: true });
                },
              }}
            />
          ))}
        {panel === 'plan' && (
          <PlanPanel
            state={plan}
            connected={live !== null}
            canAnalyze={Boolean(
              live && (live.server.capabilities.explainAnalyze || live.server.capabilities.analyzeFormatJson),
            )}
            explainShortcut={keys.explain}
            items={itemsOfStatement(
              items,
              analysis.status === 'done' ? analysis.report.statements : [],
              plan.status === 'done' ? plan.sql : null,
            )}
            onExplain={() => void run.explain(false)}
            onExplainAnalyze={run.confirmExplainAnalyze}
            onAllowRoutines={(sql) => void run.explainAllowingRoutines(sql)}
            onPaste={() => store.dispatch({ type: 'dialog/opened', dialog: { kind: 'paste' } })}
            onOpenFinding={tabs.openFinding}
          />
        )}
        {panel === 'indexes' && features.indexes && <IndexesPanel wb={wb} state={state} />}
        {features.top && (panel === 'top' || state.topKept) && (
          // Kept mounted once opened: a running capture and its result survive a switch to another panel.
          <div className="panels__keep" hidden={panel !== 'top'}>
            <TopQueriesPanel
              api={api}
              listen={wb.listen}
              connected={live !== null}
              connectionId={live?.connectionId ?? null}
              production={productionName(session)}
              linkUp={linkUp}
              onSend={(sql, explainIt) => {
                tabs.newTab('Top query', `${sql.replace(/;?\s*$/, '')};\n`);
                if (explainIt) void run.explain(false);
                else void run.analyze('all');
              }}
            />
          </div>
        )}
        {features.sqlFile && (
          // Always mounted: a running file analysis and its findings survive a switch to another panel.
          <div className="panels__keep" hidden={panel !== 'file'}>
            <SqlFilePanel
              api={api}
              listen={wb.listen}
              context={() => {
                const { session: now, disabledRules, enabledRules } = store.getState();
                const { sql: _sql, ...request } = analyzeRequest(now, '');
                void _sql;
                return {
                  ...request,
                  ...(disabledRules.length > 0 ? { disabledRules } : {}),
                  ...(enabledRules.length > 0 ? { enabledRules } : {}),
                };
              }}
              where={
                live
                  ? `${live.label} (${flavor} ${version}, live schema)`
                  : `${flavor} ${version}${session.kind === 'offline' && session.schemaFile ? `, schema file ${session.schemaFile.name}` : session.kind === 'offline' && session.schemaSql.trim() ? ', the pasted schema' : ', no schema'}`
              }
              onOpenStatement={(title, sql) => {
                // A routine body keeps its own semicolons: the tab gets it inside a DELIMITER block.
                tabs.newTab(title, sql.includes(';') ? `DELIMITER ;;\n${sql};;\nDELIMITER ;\n` : `${sql};\n`);
              }}
            />
          </div>
        )}
        {panel === 'locks' && features.locks && (
          <LocksPanel
            api={api}
            connectionId={live?.connectionId ?? null}
            production={productionName(session)}
            linkUp={linkUp}
          />
        )}
        {panel === 'modes' && features.modes && (
          <ModesPanel
            api={api}
            listen={wb.listen}
            connectionId={live?.connectionId ?? null}
            getSql={() => wb.editor()?.getText() ?? ''}
            schemaSql={session.kind === 'offline' ? session.schemaSql : ''}
            schemaId={session.kind === 'offline' ? session.schemaFile?.schemaId : undefined}
          />
        )}
        {panel === 'export' && features.export && (
          <ExportPanel
            api={api}
            profileId={profileId(session)}
            flavor={flavor}
            version={version}
            connectionId={live?.connectionId ?? null}
            dark={dark}
            revision={state.exportRevision}
            where={live?.label ?? null}
            production={productionName(session)}
            applyRequest={state.exportApplyRequest}
          />
        )}
        {panel === 'run' && features.run && (
          <RunPanel
            api={api}
            connectionId={live?.connectionId ?? null}
            getStatement={() => {
              const editor = wb.editor();
              return editor ? (statementAt(editor.getText(), editor.cursorOffset())?.sql ?? null) : null;
            }}
          />
        )}
      </div>
    </section>
  );
}

function FindingsCount({ items }: { items: ReportItem[] }) {
  const counts = severityCounts(items);
  const title = `${counts.error} errors, ${counts.warning} warnings, ${counts.info} info`;
  return (
    <span
      className={`panels__count${counts.error > 0 ? ' panels__count--error' : ''}`}
      title={title}
      data-testid="findings-count"
    >
      {items.length}
    </span>
  );
}
