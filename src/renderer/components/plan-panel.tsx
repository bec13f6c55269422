// The Plan panel: EXPLAIN as a tree of node cards (bars, flags, estimated vs actual, linked findings), and the raw output.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type WheelEvent } from 'react';
import type { PlanNode, PlanReport } from '../../core/explain/index.js';
import {
  barPercent,
  findingsForNode,
  flagTone,
  formatCount,
  initialCollapsed,
  nodeTone,
  parentIds,
  planScale,
  type PlanScale,
} from '../plan-view.js';
import type { Flavor } from '../../core/flavors/capabilities.js';
import { accessCost } from '../plan-detail.js';
import type { ReportItem } from '../report-items.js';
import { ErrorBox, type ShownError } from './error-box.js';
import { PlanNodeDetail } from './plan-node-detail.js';
import { RoutineConsent } from './routine-consent.js';

/** What the Plan panel shows. */
export type PlanState =
  | { status: 'idle' }
  | { status: 'running'; analyze: boolean }
  | {
      status: 'done';
      source: 'server' | 'pasted';
      sql: string | null;
      report: PlanReport;
      raw: Record<string, unknown>;
      analyzed: boolean;
    }
  | {
      status: 'failed';
      error: ShownError;
      /** Refused because it may run stored routines: the statement and the routines it names. */
      retry?: { sql: string; routines: string[] };
    };

/** Props of {@link PlanPanel}. */
export interface PlanPanelProps {
  state: PlanState;
  connected: boolean;
  canAnalyze: boolean;
  explainShortcut: string;
  /** Findings of the editor tab's last analysis (to explain bad nodes). */
  items: readonly ReportItem[];
  onExplain(): void;
  onExplainAnalyze(): void;
  onPaste(): void;
  onOpenFinding(key: string): void;
  /** EXPLAIN `sql` again, allowing the routines the user confirmed. */
  onAllowRoutines?(sql: string): void;
}

/** The EXPLAIN was refused because the statement calls stored functions (consent can be given here). */
export function routineConsentAsked(error: ShownError): boolean {
  return error.code === 'CONSENT_REQUIRED' && /allow(ing)? routine calls/.test(error.hint ?? '');
}

const zoomSteps = [0.5, 0.67, 0.8, 0.9, 1, 1.1, 1.25, 1.5];

/** The panel body. */
export function PlanPanel(props: PlanPanelProps) {
  const { state, connected, explainShortcut } = props;
  return (
    <div className="plan" data-testid="plan-panel-body">
      <div className="plan__toolbar" role="toolbar" aria-label="Plan">
        <button
          type="button"
          className="button button--small"
          onClick={props.onExplain}
          disabled={!connected || state.status === 'running'}
          title={connected ? 'EXPLAIN the statement at the cursor' : 'Connect to a server to run EXPLAIN'}
          data-testid="plan-explain"
        >
          EXPLAIN <kbd className="button__kbd">{explainShortcut}</kbd>
        </button>
        <button
          type="button"
          className="button button--small"
          onClick={props.onExplainAnalyze}
          disabled={!connected || !props.canAnalyze || state.status === 'running'}
          title={
            !connected
              ? 'Connect to a server to run EXPLAIN ANALYZE'
              : props.canAnalyze
                ? 'Runs the query to measure it (asks first)'
                : 'This server has no EXPLAIN ANALYZE'
          }
          data-testid="plan-analyze"
        >
          EXPLAIN ANALYZE…
        </button>
        <button
          type="button"
          className="button button--small"
          onClick={props.onPaste}
          data-testid="plan-paste"
        >
          Paste EXPLAIN…
        </button>
      </div>
      {state.status === 'idle' && (
        <div className="empty-state" data-testid="plan-empty">
          <p className="empty-state__title">No plan yet</p>
          <p>
            {connected ? (
              <>
                Put the cursor in a statement and press <kbd>{explainShortcut}</kbd> to see how the server
                runs it.
              </>
            ) : (
              <>
                Offline: choose <strong>Paste EXPLAIN…</strong> and paste the output of EXPLAIN (table, \G
                rows, FORMAT=JSON or FORMAT=TREE). Connect to a server to run EXPLAIN with{' '}
                <kbd>{explainShortcut}</kbd>.
              </>
            )}
          </p>
        </div>
      )}
      {state.status === 'running' && (
        <div className="empty-state" aria-busy="true">
          <p className="empty-state__title">
            {state.analyze ? 'Running EXPLAIN ANALYZE…' : 'Running EXPLAIN…'}
          </p>
        </div>
      )}
      {state.status === 'failed' && (
        <div className="panels__error">
          <ErrorBox error={state.error} testId="plan-error" />
          {state.retry && props.onAllowRoutines && (
            <RoutineConsent key={state.retry.sql} retry={state.retry} onAllow={props.onAllowRoutines} />
          )}
        </div>
      )}
      {state.status === 'done' && (
        <PlanView
          key={`${state.report.root.id}-${state.sql ?? ''}-${JSON.stringify(state.raw).length}`}
          state={state}
          items={props.items}
          onOpenFinding={props.onOpenFinding}
        />
      )}
    </div>
  );
}

function PlanView({
  state,
  items,
  onOpenFinding,
}: {
  state: Extract<PlanState, { status: 'done' }>;
  items: readonly ReportItem[];
  onOpenFinding(key: string): void;
}) {
  const root = state.report.root;
  const scale = useMemo(() => planScale(root), [root]);
  const [collapsed, setCollapsed] = useState(() => initialCollapsed(root));
  const [view, setView] = useState<'tree' | 'raw'>('tree');
  const [zoom, setZoom] = useState(1);
  const rawKeys = Object.keys(state.raw);
  const [rawKey, setRawKey] = useState(rawKeys[0] ?? '');
  const canvas = useRef<HTMLDivElement>(null);
  useEffect(() => setCollapsed(initialCollapsed(root)), [root]);
  // The worst node is what the user came for: bring the first red (or amber) card into view.
  useEffect(() => {
    const worst =
      canvas.current?.querySelector<HTMLElement>('.plan-node--bad') ??
      canvas.current?.querySelector<HTMLElement>('.plan-node--warn');
    worst?.scrollIntoView({ block: 'nearest' });
  }, [root]);

  function zoomBy(direction: 1 | -1) {
    setZoom((current) => {
      const index = zoomSteps.indexOf(current);
      const next =
        zoomSteps[Math.max(0, Math.min(zoomSteps.length - 1, (index < 0 ? 4 : index) + direction))];
      return next ?? 1;
    });
  }

  function toggle(id: string) {
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  return (
    <div className="plan__view">
      <div className="plan__meta">
        <span className="chip chip--muted" data-testid="plan-format">
          {state.source === 'pasted' ? 'pasted' : 'server'} · {state.report.format} · {state.report.flavor}
        </span>
        <span className="chip chip--muted">{scale.nodes === 1 ? '1 node' : `${scale.nodes} nodes`}</span>
        {scale.analyzed && <span className="badge badge--caution">ANALYZE: executed</span>}
        {state.sql && (
          <code className="plan__sql" title={state.sql}>
            {state.sql}
          </code>
        )}
        <span className="toolbar__spacer" />
        <div className="segmented segmented--small" role="tablist" aria-label="Plan view">
          <button
            type="button"
            role="tab"
            aria-selected={view === 'tree'}
            className={view === 'tree' ? 'is-active' : ''}
            onClick={() => setView('tree')}
            data-testid="plan-view-tree"
          >
            Tree
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={view === 'raw'}
            className={view === 'raw' ? 'is-active' : ''}
            onClick={() => setView('raw')}
            data-testid="plan-view-raw"
          >
            Raw
          </button>
        </div>
        {view === 'tree' && (
          <>
            <button type="button" className="button button--small" onClick={() => setCollapsed(new Set())}>
              Expand all
            </button>
            <button
              type="button"
              className="button button--small"
              onClick={() => setCollapsed(parentIds(root))}
            >
              Collapse all
            </button>
            <span className="plan__zoom" role="group" aria-label="Zoom">
              <button
                type="button"
                className="button button--small"
                onClick={() => zoomBy(-1)}
                aria-label="Zoom out"
              >
                −
              </button>
              <button
                type="button"
                className="button button--small plan__zoom-value"
                onClick={() => setZoom(1)}
                aria-label="Reset zoom"
                data-testid="plan-zoom"
              >
                {Math.round(zoom * 100)}%
              </button>
              <button
                type="button"
                className="button button--small"
                onClick={() => zoomBy(1)}
                aria-label="Zoom in"
              >
                +
              </button>
            </span>
          </>
        )}
      </div>
      {state.report.warnings.length > 0 && (
        <ul className="plan__warnings">
          {state.report.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      )}
      {view === 'tree' ? (
        <div
          className="plan__canvas"
          ref={canvas}
          onWheel={(event: WheelEvent) => {
            if (!event.ctrlKey && !event.metaKey) return;
            event.preventDefault();
            zoomBy(event.deltaY < 0 ? 1 : -1);
          }}
        >
          <ul
            className="plan-tree"
            role="tree"
            aria-label="Plan tree"
            style={{ zoom }}
            data-testid="plan-tree"
          >
            <PlanTreeNode
              node={root}
              depth={1}
              scale={scale}
              collapsed={collapsed}
              onToggle={toggle}
              items={items}
              sql={state.sql}
              flavor={state.report.flavor === 'unknown' ? 'mysql' : state.report.flavor}
              onOpenFinding={onOpenFinding}
            />
          </ul>
        </div>
      ) : (
        <div className="plan__raw">
          {rawKeys.length > 1 && (
            <div className="segmented segmented--small" role="tablist" aria-label="Raw format">
              {rawKeys.map((key) => (
                <button
                  key={key}
                  type="button"
                  role="tab"
                  aria-selected={rawKey === key}
                  className={rawKey === key ? 'is-active' : ''}
                  onClick={() => setRawKey(key)}
                >
                  {key.toUpperCase()}
                </button>
              ))}
            </div>
          )}
          <pre className="plan__raw-text" data-testid="plan-raw" tabIndex={0}>
            {rawText(state.raw[rawKey])}
          </pre>
        </div>
      )}
    </div>
  );
}

function rawText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2);
}

/** Arrow keys on a node: Left collapses (or goes to the parent), Right expands (or goes to the first child). */
function treeKeys(
  event: KeyboardEvent<HTMLElement>,
  hasChildren: boolean,
  expanded: boolean,
  toggle: () => void,
) {
  const item = event.currentTarget.closest('[role=treeitem]');
  if (!item || event.target !== event.currentTarget) return;
  const all = Array.from(item.closest('[role=tree]')?.querySelectorAll<HTMLElement>('.plan-node') ?? []);
  const index = all.indexOf(event.currentTarget);
  if (event.key === 'ArrowDown') all[index + 1]?.focus();
  else if (event.key === 'ArrowUp') all[index - 1]?.focus();
  else if (event.key === 'ArrowRight' && hasChildren && !expanded) toggle();
  else if (event.key === 'ArrowLeft' && hasChildren && expanded) toggle();
  else if (event.key === 'ArrowLeft')
    item.parentElement?.closest('[role=treeitem]')?.querySelector<HTMLElement>('.plan-node')?.focus();
  else return;
  event.preventDefault();
}

function PlanTreeNode({
  node,
  depth,
  scale,
  collapsed,
  onToggle,
  items,
  sql,
  flavor,
  onOpenFinding,
}: {
  node: PlanNode;
  depth: number;
  scale: PlanScale;
  collapsed: Set<string>;
  onToggle(id: string): void;
  items: readonly ReportItem[];
  sql: string | null;
  flavor: Flavor;
  onOpenFinding(key: string): void;
}) {
  const hasChildren = node.children.length > 0;
  const expanded = hasChildren && !collapsed.has(node.id);
  const tone = nodeTone(node);
  const linked = findingsForNode(node, items, sql);
  return (
    <li
      role="treeitem"
      aria-level={depth}
      aria-expanded={hasChildren ? expanded : undefined}
      className="plan-tree__item"
    >
      <div
        className={`plan-node plan-node--${tone}`}
        tabIndex={depth === 1 ? 0 : -1}
        data-testid="plan-node"
        data-node-id={node.id}
        data-table={node.table ?? undefined}
        data-tone={tone}
        title={node.condition ? `Condition: ${node.condition}` : undefined}
        onKeyDown={(event) => treeKeys(event, hasChildren, expanded, () => onToggle(node.id))}
      >
        <div className="plan-node__head">
          {hasChildren ? (
            <button
              type="button"
              className="plan-node__toggle"
              aria-label={expanded ? 'Collapse' : `Expand (${node.children.length})`}
              onClick={() => onToggle(node.id)}
              tabIndex={-1}
            >
              {expanded ? '▾' : `▸ ${node.children.length}`}
            </button>
          ) : (
            <span className="plan-node__toggle plan-node__toggle--leaf" aria-hidden="true" />
          )}
          <span className="plan-node__operation" data-testid="plan-node-operation">
            {node.operation}
          </span>
          {node.table && (
            <span className="plan-node__table" data-testid="plan-node-table">
              {node.table}
            </span>
          )}
          {node.accessType && (
            <span
              className={`chip plan-node__access plan-node__access--${node.accessType === 'ALL' ? 'bad' : node.accessType === 'index' ? 'warn' : 'plain'} plan-node__access--cost-${accessCost(node.accessType).cost}`}
              title={accessCost(node.accessType).title}
              data-testid="plan-node-access"
              data-cost={accessCost(node.accessType).cost}
            >
              {node.accessType}
            </span>
          )}
          {node.key && (
            <span
              className="chip chip--code"
              title={`Index used${node.keyLength ? `, key length ${node.keyLength}` : ''}`}
            >
              key {node.key}
            </span>
          )}
          {!node.key && node.possibleKeys.length > 0 && (
            <span className="chip chip--muted" title="Indexes the optimizer considered">
              possible {node.possibleKeys.join(', ')}
            </span>
          )}
        </div>
        <div className="plan-node__bars">
          {node.rowsEstimated !== null && (
            <Bar
              label="rows"
              value={node.rowsEstimated}
              max={scale.maxRows}
              text={`${formatCount(node.rowsEstimated)} est.${node.filtered !== null && node.filtered < 100 ? ` · ${node.filtered}% filtered` : ''}`}
              tone={tone}
            />
          )}
          {(node.rowsActual !== null || node.timeMs !== null) && (
            <Bar
              label="actual"
              value={node.rowsActual}
              max={scale.maxRows}
              text={`${formatCount(node.rowsActual)} rows${node.loops !== null ? ` × ${formatCount(node.loops)} loops` : ''}${node.timeMs !== null ? ` · ${formatCount(node.timeMs)} ms` : ''}`}
              tone="actual"
              testId="plan-node-actual"
            />
          )}
          {node.cost !== null && (
            <Bar
              label="cost"
              value={node.cost}
              max={scale.maxCost}
              text={formatCount(node.cost)}
              tone="cost"
            />
          )}
        </div>
        <PlanNodeDetail node={node} flavor={flavor} />
        {(node.flags.length > 0 || node.condition) && (
          <div className="plan-node__flags">
            {node.flags.map((flag) => (
              <span key={flag} className={`flag flag--${flagTone(flag)}`} data-testid="plan-flag">
                {flag}
              </span>
            ))}
            {node.condition && (
              <span className="plan-node__condition" data-testid="plan-node-condition">
                where {node.condition}
              </span>
            )}
          </div>
        )}
        {linked.length > 0 && (
          <div className="plan-node__findings">
            {linked.map((item) =>
              item.kind === 'finding' ? (
                <button
                  key={item.key}
                  type="button"
                  className="plan-node__finding"
                  onClick={() => onOpenFinding(item.key)}
                  title="Show this finding in the Findings panel and the editor"
                  data-testid="plan-node-finding"
                >
                  <strong>{item.finding.rule}</strong> {item.finding.message}
                </button>
              ) : null,
            )}
          </div>
        )}
      </div>
      {expanded && (
        <ul role="group" className="plan-tree__children">
          {node.children.map((child) => (
            <PlanTreeNode
              key={child.id}
              node={child}
              depth={depth + 1}
              scale={scale}
              collapsed={collapsed}
              onToggle={onToggle}
              items={items}
              sql={sql}
              flavor={flavor}
              onOpenFinding={onOpenFinding}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

function Bar({
  label,
  value,
  max,
  text,
  tone,
  testId,
}: {
  label: string;
  value: number | null;
  max: number;
  text: string;
  tone: string;
  testId?: string;
}) {
  const percent = barPercent(value, max);
  return (
    <div className="bar" data-testid={testId}>
      <span className="bar__label">{label}</span>
      <span className="bar__track" aria-hidden="true">
        {percent !== null && (
          <span className={`bar__fill bar__fill--${tone}`} style={{ width: `${percent}%` }} />
        )}
      </span>
      <span className="bar__text">{text}</span>
    </div>
  );
}
