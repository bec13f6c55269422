// The Indexes panel: per query the "Index plan" (the analysis's statements[].indexPlan), per workload the "Index set".
import type {
  DesignedPart,
  QueryIndexPlan,
  TableIndexPlan,
  WorkloadIndex,
  WorkloadPlan,
} from '../../core/indexing/index.js';
import type { StatementReport } from '../../core/model/report.js';
import {
  acceptIndex,
  benefitBars,
  designIndexSet,
  indexKey,
  indexSetStore,
  rejectIndex,
  type IndexSetState,
} from '../state/index-set.js';
import type { Workbench } from '../state/context.js';
import { useStore } from '../state/store.js';
import { openPlanVerify, openVerify, planWhatIfTarget, verifyBlocked } from '../state/suggestions.js';
import { activeAnalysis, type WorkbenchState } from '../state/workbench.js';
import { AcceptReject } from './accept-reject.js';
import { CodeBlock } from './code-block.js';
import { ErrorBox } from './error-box.js';
import { RedundantIndexes, UnusedIndexes } from './index-hygiene.js';
import { ProofResult, ProveIndexSet } from './index-proof.js';
import { indexProofStore } from '../state/index-proof.js';
import type { IndexProof } from '../../core/explain/what-if-set.js';
import { WhatIfResult } from './what-if-dialog.js';

const roleLabel: Record<DesignedPart['role'], string> = {
  equality: 'equality',
  join: 'join',
  in: 'IN list',
  range: 'range',
  sort: 'ORDER BY',
  group: 'GROUP BY',
  cover: 'covers',
};

const verdictLabel: Record<TableIndexPlan['verdict'], string> = {
  create: 'new index',
  extend: 'extends an index',
  served: 'already served',
  none: 'no index',
};

/** One line of SQL for a header: comments (the `-- weight:` lines) dropped, whitespace collapsed. */
function oneLine(sql: string, length: number): string {
  return sql
    .replace(/^\s*(--|#)[^\n]*$/gm, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, length);
}

function partLabel(part: DesignedPart): string {
  const name = part.column ?? `(${part.expression ?? ''})`;
  return `${name}${part.prefixLength ? `(${part.prefixLength})` : ''}${part.desc ? ' DESC' : ''}`;
}

function KeyParts({ parts }: { parts: DesignedPart[] }) {
  return (
    <ol className="index-parts" aria-label="Key parts in order">
      {parts.map((part, i) => (
        <li key={i} className={`index-part index-part--${part.role}`} data-testid="index-part">
          <code>{partLabel(part)}</code>
          <span className="index-part__role">{roleLabel[part.role]}</span>
        </li>
      ))}
    </ol>
  );
}

export function IndexesPanel({ wb, state }: { wb: Workbench; state: WorkbenchState }) {
  const set = useStore(indexSetStore(wb));
  const analysis = activeAnalysis(state);
  const statements =
    analysis.status === 'done'
      ? analysis.report.statements.filter((statement) => statement.indexPlan?.tables.length)
      : [];
  return (
    <div className="indexes">
      <section className="indexes__plans" aria-label="Index plan" data-testid="index-plan">
        <h3 className="indexes__title">Index plan</h3>
        {analysis.status !== 'done' ? (
          <p className="indexes__empty">Analyze the editor’s statements to see the index each one needs.</p>
        ) : statements.length === 0 ? (
          <p className="indexes__empty">
            No statement has an index design: it needs a SELECT, UPDATE or DELETE over tables the schema
            knows.
          </p>
        ) : (
          statements.map((statement) => (
            <StatementPlan key={statement.index} wb={wb} state={state} statement={statement} />
          ))
        )}
      </section>
      <IndexSetView wb={wb} state={state} set={set} />
    </div>
  );
}

function StatementPlan({
  wb,
  state,
  statement,
}: {
  wb: Workbench;
  state: WorkbenchState;
  statement: StatementReport;
}) {
  const plan = statement.indexPlan!;
  return (
    <article className="index-plan" data-testid="index-plan-statement">
      <header className="index-plan__head">
        <span className="chip chip--muted">Statement {statement.index + 1}</span>
        <code className="index-plan__sql" title={statement.sql}>
          {oneLine(statement.sql, 160)}
        </code>
      </header>
      {plan.drivingTable && <p className="index-plan__note">{plan.notes.find((n) => /drives/.test(n))}</p>}
      <QueryAsAdvised plan={plan} />
      {plan.tables.map((table, position) => (
        <PlanTable
          key={planEntryKey(table, position)}
          wb={wb}
          state={state}
          statement={statement}
          table={table}
          position={position}
        />
      ))}
    </article>
  );
}

/**
 * The statement the indexes are designed for, when it is not the one written: the generated-column form a
 * server without expression substitution needs (MariaDB), and the UNION ALL of an OR split by branch.
 */
function QueryAsAdvised({ plan }: { plan: QueryIndexPlan }) {
  const orSql = plan.orRewrite?.sql ?? null;
  if (!(plan.rewrittenSql && plan.queryMustChange) && !orSql) return null;
  return (
    <div className="index-plan__query" data-testid="index-plan-query">
      {plan.rewrittenSql && plan.queryMustChange && (
        <>
          <p className="index-plan__note" data-testid="index-plan-must-change">
            The query must change: this server does not use an index on a generated column for the expression
            as written, only for a condition that names the column
            {plan.generatedColumns && plan.generatedColumns.length > 0
              ? ` (${plan.generatedColumns.map((use) => `${use.table}.${use.name}`).join(', ')})`
              : ''}
            .
          </p>
          <CodeBlock label="Query as advised" code={plan.rewrittenSql} />
        </>
      )}
      {orSql && plan.orRewrite && (
        <>
          <p className="index-plan__note" data-testid="index-plan-or-rewrite">
            {plan.orRewrite.equivalent
              ? 'Equivalent UNION ALL rewrite: one SELECT per OR branch, each served by its own index. '
              : 'UNION ALL rewrite, not equivalent: '}
            {plan.orRewrite.why}
          </p>
          <CodeBlock label="UNION ALL rewrite" code={orSql} />
        </>
      )}
    </div>
  );
}

/**
 * A plan entry's React key: its position in the statement's plan with its scope and table. One table can
 * have several entries (one per OR branch, UNION branch, subquery …), so table and alias alone repeat.
 */
export function planEntryKey(table: TableIndexPlan, position: number): string {
  return `${position}:${table.scope ?? 'main'}:${table.table}:${table.alias ?? ''}`;
}

/** One table of a statement's Index plan: key parts and why, what it replaces, EXPLAIN before/after. */
function PlanTable({
  wb,
  state,
  statement,
  table,
  position,
}: {
  wb: Workbench;
  state: WorkbenchState;
  statement: StatementReport;
  table: TableIndexPlan;
  position: number;
}) {
  const plan = statement.indexPlan!;
  const analysis = activeAnalysis(state);
  const items = analysis.status === 'done' ? analysis.items : [];
  const blocked = verifyBlocked(state);
  // The IDX001 finding of this table and statement carries the DDL of every entry of the table (one per
  // OR branch, block …): it is what what-if verifies, so its button and result sit on the first such entry.
  const finding = items.find(
    (item) =>
      item.kind === 'finding' &&
      item.statementIndex === statement.index &&
      item.finding.rule === 'IDX001' &&
      item.finding.table?.toLowerCase() === table.table.toLowerCase(),
  );
  const sameTable = plan.tables.filter(
    (other) => other.table.toLowerCase() === table.table.toLowerCase() && other.ddl.length > 0,
  );
  // Without a finding (IDX001 is not reported where an existing index already seeks part of the statement),
  // the plan itself is the what-if target.
  const planTarget = finding ? null : planWhatIfTarget(state, statement, table.table);
  const verifyKey = finding ? `${finding.key}#0` : `plan:${statement.index}:${table.table.toLowerCase()}#0`;
  const verifiesHere =
    (finding !== undefined || planTarget !== null) && table.ddl.length > 0 && sameTable[0] === table;
  const verification = verifiesHere ? state.verifications[verifyKey] : undefined;
  return (
    <div
      className="index-plan__table"
      data-testid="index-plan-table"
      data-verdict={table.verdict}
      data-scope={table.scope ?? 'main'}
      data-position={position}
    >
      <div className="index-plan__title">
        <strong>{table.table}</strong>
        {table.alias && <span className="chip chip--muted">as {table.alias}</span>}
        {table.role !== 'only' && <span className="chip">{table.role}</span>}
        {table.scope && (
          <span
            className="chip chip--muted index-plan__scope"
            title="The query block or OR branch this entry serves"
            data-testid="index-plan-scope"
          >
            {table.scope}
          </span>
        )}
        <span
          className={`badge ${table.verdict === 'create' || table.verdict === 'extend' ? 'badge--caution' : 'badge--ok'}`}
          data-testid="index-plan-verdict"
        >
          {verdictLabel[table.verdict]}
        </span>
        {table.covering && <span className="badge badge--ok">covering</span>}
        {table.sortFromIndex && <span className="badge badge--ok">sort from index</span>}
      </div>
      {table.parts.length > 0 && <KeyParts parts={table.parts} />}
      {table.existingIndex && (
        <p className="index-plan__replaces" data-testid="index-plan-replaces">
          {table.verdict === 'extend'
            ? `Replaces ${table.existingIndex}: it is a left prefix of this index, dropped and re-added in one ALTER.`
            : `Uses the existing index ${table.existingIndex}: nothing to add.`}
        </p>
      )}
      {table.notes.length > 0 && (
        <ul className="index-plan__why" aria-label="Why this column order">
          {table.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      {table.ddl.length > 0 && <pre className="index-plan__ddl">{table.ddl.join('\n')}</pre>}
      {verifiesHere && (
        <div className="index-plan__explain">
          <button
            type="button"
            className="button button--small"
            disabled={blocked !== null}
            title={
              blocked ?? 'Build the index invisibly (or in the sandbox), EXPLAIN before and after, drop it'
            }
            onClick={() =>
              finding
                ? openVerify(wb, finding.key, 0)
                : planTarget && openPlanVerify(wb, verifyKey, planTarget)
            }
            data-testid="index-plan-explain"
          >
            EXPLAIN before/after
          </button>
          {sameTable.length > 1 && (
            <span className="index-plan__note">
              Builds the indexes of all {sameTable.length} entries of {table.table} together.
            </span>
          )}
          {blocked && <span className="index-plan__blocked">{blocked}</span>}
          {verification && <WhatIfResult reply={verification} />}
        </div>
      )}
    </div>
  );
}

function IndexSetView({ wb, state, set }: { wb: Workbench; state: WorkbenchState; set: IndexSetState }) {
  return (
    <section className="indexes__set" aria-label="Index set" data-testid="index-set">
      <div className="indexes__set-head">
        <h3 className="indexes__title">Index set</h3>
        <button
          type="button"
          className="button button--small"
          onClick={() => {
            // A new design may number the statements differently: its indexes are proven again.
            indexProofStore(wb).dispatch({ type: 'proof/reset' });
            void designIndexSet(wb);
          }}
          disabled={set.status === 'running'}
          title="One index set for every statement in the editor (a '-- weight: N' comment before a statement weighs it)"
          data-testid="index-set-design"
        >
          {set.status === 'running'
            ? 'Designing…'
            : set.plan
              ? 'Design again'
              : 'Design for the editor’s statements'}
        </button>
      </div>
      {set.error && <ErrorBox error={set.error} testId="index-set-error" />}
      {set.actionError && <ErrorBox error={set.actionError} testId="index-set-action-error" />}
      {set.plan ? (
        <IndexSetResult wb={wb} state={state} plan={set.plan} set={set} />
      ) : (
        !set.error && (
          <p className="indexes__empty">
            Every statement in the editor is one query of the workload; candidates are merged by prefix and
            chosen by benefit per byte, weighed against the writes on each table.
          </p>
        )
      )}
    </section>
  );
}

function IndexSetResult({
  wb,
  state,
  plan,
  set,
}: {
  wb: Workbench;
  state: WorkbenchState;
  plan: WorkloadPlan;
  set: IndexSetState;
}) {
  const bars = benefitBars(plan);
  const proof = useStore(indexProofStore(wb));
  const rejectedNames = new Set(
    Object.values(proof.proofs)
      .filter((entry) => entry.status === 'rejected')
      .map((entry) => `${entry.table}.${entry.name}`.toLowerCase()),
  );
  return (
    <>
      <p className="indexes__summary" data-testid="index-set-summary">
        {plan.indexes.length} index{plan.indexes.length === 1 ? '' : 'es'} for {plan.queries.length} statement
        {plan.queries.length === 1 ? '' : 's'}
      </p>
      <ProveIndexSet wb={wb} state={state} plan={plan} />
      <ul className="index-set" aria-label="Indexes by estimated time saved">
        {plan.indexes.map((index, n) => (
          <IndexRow
            key={indexKey(index)}
            wb={wb}
            index={index}
            bar={bars.indexes[n] ?? 0}
            set={set}
            proof={proof.proofs[indexKey(index)]}
          />
        ))}
      </ul>
      <h4 className="indexes__subtitle">Per statement</h4>
      <ul className="index-set__queries" aria-label="Statements and the index each uses">
        {plan.queries.map((query, n) => (
          <li key={query.index} className="index-set__query" data-testid="index-set-query">
            <span className="index-set__bar" title={`weight ${query.weight}`}>
              <span style={{ width: `${Math.round((bars.queries[n] ?? 0) * 100)}%` }} />
            </span>
            <code className="index-set__sql" title={query.sql}>
              #{query.index + 1} {oneLine(query.sql, 90)}
            </code>
            <span className="index-set__uses">
              {query.error
                ? query.error
                : query.tables.length === 0
                  ? 'no table to index'
                  : query.tables
                      .map(
                        (table) =>
                          `${table.table}: ${table.uses ?? 'no index'}${table.via === 'existing' ? ' (existing)' : ''}${rejectedNames.has(`${table.table}.${table.uses ?? ''}`.toLowerCase()) ? ' (rejected by the optimizer)' : ''}`,
                      )
                      .join('; ')}
            </span>
          </li>
        ))}
      </ul>
      <RedundantIndexes wb={wb} set={set} redundant={plan.redundant} />
      {set.unused && <UnusedIndexes wb={wb} set={set} report={set.unused} />}
      {plan.notes.map((note) => (
        <p key={note} className="index-plan__note">
          {note}
        </p>
      ))}
    </>
  );
}

function IndexRow({
  wb,
  index,
  bar,
  set,
  proof,
}: {
  wb: Workbench;
  index: WorkloadIndex;
  bar: number;
  set: IndexSetState;
  /** The server's verdict, once proven. */
  proof: IndexProof | undefined;
}) {
  const refused = proof?.status === 'rejected' ? proof.reason : null;
  const decision = set.decisions[indexKey(index)];
  return (
    <li
      className={`index-set__index${decision ? ` is-${decision.kind}` : ''}${index.rejected || refused ? ' is-refused' : ''}`}
      data-proof={proof?.status ?? 'unproven'}
      data-testid="index-set-index"
      data-decision={decision?.kind ?? 'open'}
    >
      <div className="index-set__row">
        <span
          className="index-set__bar index-set__bar--benefit"
          title={`net benefit ${index.netBenefit.toFixed(2)}`}
        >
          <span style={{ width: `${Math.round(bar * 100)}%` }} />
        </span>
        <strong>
          {index.table}.{index.name}
        </strong>
        <span className="chip chip--muted">
          {index.verdict === 'extend' ? `extends ${index.existingIndex}` : 'new'}
        </span>
        <span className="index-set__numbers">
          benefit {index.readBenefit.toFixed(2)} · write cost {index.writeCost.toFixed(2)} · serves{' '}
          {index.serves.map((n) => `#${n + 1}`).join(', ')}
        </span>
        <AcceptReject
          decision={decision?.kind}
          acceptBlocked={refused}
          acceptTitle="Into the workspace, so the Export panel includes its DDL"
          onAccept={() => void acceptIndex(wb, index)}
          onReject={() => void rejectIndex(wb, index)}
          testIdPrefix="index-set"
        />
      </div>
      <KeyParts parts={index.parts} />
      <pre className="index-plan__ddl">{index.ddl.join('\n')}</pre>
      {index.rejected && <p className="index-plan__blocked">{index.rejected}</p>}
      {proof && <ProofResult proof={proof} />}
    </li>
  );
}
