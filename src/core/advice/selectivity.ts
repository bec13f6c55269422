// Selectivity from live statistics: what to sample for a report, and the notes the samples justify.
//
// Design note: the core stays pure. A live analysis runs in two steps: `selectivityRequests(report)`
// lists, per table, the bare columns of proposed plain indexes and the expressions of proposed
// functional indexes / generated columns (unqualified SQL the service can evaluate over a bounded
// sample of the table); the service measures them (`COUNT(DISTINCT …)` over `LIMIT n` rows, read-only,
// with a time limit) and hands the numbers back to `applySelectivity`, which adds a note to every
// index suggestion whose key would be unselective. Only suggestions get notes; nothing else changes,
// so an offline analysis and a live one without statistics give the same report.
//
// Index use (index-use.ts): the same sample also counts the rows each proposed index's access
// predicate matches. A proposal the server would not read on that data (a range over a larger share
// than its measured break-even, an ORDER BY-only index without LIMIT) is withdrawn from the finding,
// which says why with the numbers; everything not judged keeps today's advice.

import type { Flavor } from '../flavors/capabilities.js';
import type { AnalysisReport, Finding, Suggestion } from '../model/report.js';
import { findTable, type SchemaModel } from '../model/schema.js';
import { columnRefs, isNode } from '../sql/ast.js';
import type { QueryIndexPlan } from '../indexing/design-types.js';
import { parseStatement } from '../sql/parse.js';
import { indexExpressionText } from './index-ddl.js';
import { indexAccess, predictIndexUse, withdrawnNote } from './index-use.js';

/** A value that matches at least this share of the rows on average makes an index on it alone weak. */
export const LOW_SELECTIVITY_SHARE = 0.05;
/** Below this many sampled rows nothing is said: any plan is cheap on a tiny table. */
export const MIN_SAMPLED_ROWS = 100;

/** What to measure on one table: distinct values of bare columns and of expressions over its columns. */
export interface SelectivityRequest {
  table: string;
  /** Bare columns (schema names) that a proposed plain index would start its range on. */
  columns: string[];
  /** Expressions, unqualified SQL over the table's columns, keyed for {@link TableSample.distinct}. */
  expressions: { key: string; sql: string }[];
  /** Every column the expressions and columns read (the sample selects only these). */
  reads: string[];
  /** Access predicates of proposed indexes (unqualified SQL), keyed for {@link TableSample.matching}. */
  predicates?: { key: string; sql: string }[];
}

/** Measured on a bounded sample of one table. */
export interface TableSample {
  table: string;
  /** Rows in the sample (at most the limit; fewer means the whole table was read). */
  sampledRows: number;
  /** The sample's row limit. */
  limit: number;
  /** Distinct non-NULL values by `column:<lower-case name>` or `expression:<key>`. */
  distinct: Record<string, number>;
  /** Sampled rows each access predicate matches, by `predicate:<key>` (index-use.ts). */
  matching?: Record<string, number>;
  /** information_schema.TABLES.TABLE_ROWS (an estimate for InnoDB), when known. */
  tableRows?: number | null;
}

const EXPRESSION_KINDS = new Set<Suggestion['kind']>(['functional-index', 'generated-column']);

/** True when `distinct` values over `sampledRows` rows make an unselective index key. */
export function isLowSelectivity(distinct: number, sampledRows: number): boolean {
  if (sampledRows < MIN_SAMPLED_ROWS || distinct < 1) return false;
  return 1 / distinct >= LOW_SELECTIVITY_SHARE;
}

/** The statistics a live analysis should sample for `report` (one request per table). */
export function selectivityRequests(
  report: AnalysisReport,
  flavor: Flavor,
  /** The live schema: access predicates over columns the table lacks (yet) are not requested. */
  schema?: SchemaModel,
): SelectivityRequest[] {
  const byTable = new Map<string, SelectivityRequest>();
  const requestFor = (table: string): SelectivityRequest => {
    const key = table.toLowerCase();
    let request = byTable.get(key);
    if (!request) {
      request = { table, columns: [], expressions: [], reads: [] };
      byTable.set(key, request);
    }
    return request;
  };
  const addRead = (request: SelectivityRequest, column: string) => {
    if (!request.reads.some((read) => read.toLowerCase() === column.toLowerCase()))
      request.reads.push(column);
  };
  for (const statement of report.statements)
    for (const finding of statement.findings)
      for (const suggestion of finding.suggestions) {
        const access = indexAccess(
          finding,
          suggestion,
          statement.sql,
          flavor,
          [],
          finding.table ? tableColumnsOf(schema, finding.table) : undefined,
        );
        if (!access) continue;
        // No predicate (an ORDER BY-only index): the sample still counts the table's rows.
        const measure = access.predicate
          ? { key: access.predicateKey!, sql: access.predicate }
          : { key: 'predicate:1', sql: '1' };
        const reads = access.predicate ? access.reads : finding.columns.slice(0, 1);
        if (reads.length === 0) continue;
        const request = requestFor(access.table);
        request.predicates ??= [];
        if (!request.predicates.some((known) => known.key === measure.key)) request.predicates.push(measure);
        for (const column of reads) addRead(request, column);
      }
  for (const finding of findingsOf(report)) {
    if (!finding.table || finding.columns.length === 0) continue;
    const kinds = new Set(finding.suggestions.filter((s) => s.ddl.length > 0).map((s) => s.kind));
    if (kinds.has('index') && finding.columns.length === 1) {
      const request = requestFor(finding.table);
      const column = finding.columns[0] ?? '';
      if (!request.columns.some((known) => known.toLowerCase() === column.toLowerCase()))
        request.columns.push(column);
      addRead(request, column);
    }
    if ([...kinds].some((kind) => EXPRESSION_KINDS.has(kind))) {
      const sql = unqualifiedExpression(finding.expression, flavor);
      if (!sql) continue;
      const request = requestFor(finding.table);
      if (!request.expressions.some((known) => known.key === expressionKey(sql)))
        request.expressions.push({ key: expressionKey(sql), sql });
      for (const column of finding.columns) addRead(request, column);
    }
  }
  return [...byTable.values()].filter(
    (request) => request.columns.length + request.expressions.length + (request.predicates?.length ?? 0) > 0,
  );
}

/**
 * A copy of `report` where every index suggestion whose key the samples show to be unselective
 * carries a note saying so (with the measured numbers). Suggestions without a sample are unchanged.
 */
export function applySelectivity(
  report: AnalysisReport,
  samples: readonly TableSample[],
  flavor: Flavor,
  /** The live schema: primary keys tell a covering index (never withdrawn). */
  schema?: SchemaModel,
): AnalysisReport {
  if (samples.length === 0) return report;
  const sampleOf = (table: string) =>
    samples.find((sample) => sample.table.toLowerCase() === table.toLowerCase());
  return {
    ...report,
    statements: report.statements.map((statement) => {
      const withdrawn: { ddl: string[]; note: string }[] = [];
      const findings = statement.findings.map((found) => {
        const sample = found.table ? sampleOf(found.table) : undefined;
        if (!sample) return found;
        const finding = withdrawUnused(found, statement.sql, sample, flavor, schema);
        if (finding !== found) {
          const notes = (finding.notes ?? []).slice((found.notes ?? []).length);
          found.suggestions
            .filter((suggestion) => !finding.suggestions.includes(suggestion))
            .forEach((suggestion, index) =>
              withdrawn.push({ ddl: suggestion.ddl, note: notes[index] ?? notes[0] ?? '' }),
            );
        }
        const expression = unqualifiedExpression(finding.expression, flavor);
        return {
          ...finding,
          suggestions: finding.suggestions.map((suggestion) => {
            if (suggestion.ddl.length === 0) return suggestion;
            let subject: string | undefined;
            let distinct: number | undefined;
            if (suggestion.kind === 'index' && finding.columns.length === 1) {
              subject = finding.columns[0];
              distinct = sample.distinct[`column:${(subject ?? '').toLowerCase()}`];
            } else if (EXPRESSION_KINDS.has(suggestion.kind) && expression) {
              subject = expression;
              distinct = sample.distinct[`expression:${expressionKey(expression)}`];
            }
            if (subject === undefined || distinct === undefined) return suggestion;
            if (!isLowSelectivity(distinct, sample.sampledRows)) return suggestion;
            return {
              ...suggestion,
              notes: [...suggestion.notes, lowSelectivityNote(subject, distinct, sample)],
            };
          }),
        };
      });
      const indexPlan = statement.indexPlan && withdrawFromPlan(statement.indexPlan, withdrawn);
      return { ...statement, findings, ...(indexPlan ? { indexPlan } : {}) };
    }),
  };
}

/**
 * The statement's index plan without the indexes the live check withdrew from its findings (the same
 * DDL): such a table entry says "no index" with the finding's reason, so neither the Index plan nor the
 * workload's index set proposes what the server would not read.
 */
function withdrawFromPlan(
  plan: QueryIndexPlan,
  withdrawn: readonly { ddl: string[]; note: string }[],
): QueryIndexPlan {
  if (withdrawn.length === 0) return plan;
  const sameDdl = (a: readonly string[], b: readonly string[]) =>
    a.length > 0 && a.length === b.length && a.every((statement, index) => statement === b[index]);
  return {
    ...plan,
    tables: plan.tables.map((entry) => {
      const hit = withdrawn.find((item) => sameDdl(item.ddl, entry.ddl));
      if (!hit) return entry;
      return { ...entry, verdict: 'none', ddl: [], indexName: null, notes: [...entry.notes, hit.note] };
    }),
  };
}

/**
 * The finding without the index proposals the server would not read on the sampled data, each
 * replaced by a finding note with the reason and the numbers (index-use.ts).
 */
function withdrawUnused(
  finding: Finding,
  statementSql: string,
  sample: TableSample,
  flavor: Flavor,
  schema: SchemaModel | undefined,
): Finding {
  const table = finding.table ? schema && findTable(schema, finding.table) : undefined;
  const primaryKey =
    table?.indexes
      .find((index) => index.primary)
      ?.parts.flatMap((part) => (part.column ? [part.column] : [])) ?? [];
  const columns = finding.table ? tableColumnsOf(schema, finding.table) : undefined;
  const whole = sample.sampledRows < sample.limit;
  const rows = whole ? sample.sampledRows : (sample.tableRows ?? sample.sampledRows);
  const notes: string[] = [];
  const kept = finding.suggestions.filter((suggestion) => {
    const access = indexAccess(finding, suggestion, statementSql, flavor, primaryKey, columns);
    if (!access) return true;
    const matched = access.predicateKey ? sample.matching?.[access.predicateKey] : undefined;
    if (access.access !== 'none' && matched === undefined) return true;
    const share =
      matched === undefined || sample.sampledRows === 0 ? undefined : matched / sample.sampledRows;
    const verdict = predictIndexUse(access, share, rows, flavor);
    if (!verdict || verdict.used) return true;
    notes.push(
      withdrawnNote(
        access,
        verdict,
        {
          ...(matched === undefined ? {} : { matched }),
          sampled: sample.sampledRows,
          whole,
          tableRows: sample.tableRows ?? null,
        },
        flavor,
      ),
    );
    return false;
  });
  if (notes.length === 0) return finding;
  return { ...finding, suggestions: kept, notes: [...(finding.notes ?? []), ...notes] };
}

/** Column names of `table` in the schema, or undefined when the schema does not know it. */
function tableColumnsOf(schema: SchemaModel | undefined, table: string): string[] | undefined {
  const info = schema ? findTable(schema, table) : undefined;
  return info?.columns.map((column) => column.name);
}

/** The note for an unselective key, with the measured numbers. */
export function lowSelectivityNote(subject: string, distinct: number, sample: TableSample): string {
  const share = Math.round(100 / distinct);
  const where =
    sample.sampledRows < sample.limit
      ? `all ${sample.sampledRows.toLocaleString('en-US')} rows of ${sample.table}`
      : `a sample of ${sample.sampledRows.toLocaleString('en-US')} rows of ${sample.table}`;
  return `Low selectivity (live statistics): ${subject} has ${distinct} distinct value${distinct === 1 ? '' : 's'} in ${where}, so each value matches about ${share}% of the rows. An index on it alone may not help (the optimizer can still prefer a scan); lead with an equality column of the query, or narrow the predicate.`;
}

function findingsOf(report: AnalysisReport): Finding[] {
  return report.statements.flatMap((statement) => statement.findings);
}

function expressionKey(sql: string): string {
  return sql.replace(/[`\s]/g, '').toLowerCase();
}

/**
 * The finding's expression as unqualified SQL over its table's columns, or undefined when it is not a
 * single expression (e.g. a whole comparison) or does not parse.
 */
function unqualifiedExpression(expression: string, flavor: Flavor): string | undefined {
  if (!expression.trim()) return undefined;
  const parsed = parseStatement(`SELECT ${expression}`, flavor);
  if (!parsed.ok) return undefined;
  const columns = parsed.ast.columns;
  if (!Array.isArray(columns) || columns.length !== 1) return undefined;
  const node = (columns[0] as { expr?: unknown } | undefined)?.expr;
  if (!isNode(node) || columnRefs(node).length === 0) return undefined;
  if (
    node.type === 'binary_expr' &&
    /^(=|<>|!=|<|<=|>|>=|LIKE|IN|BETWEEN|IS|AND|OR)/i.test(String(node.operator))
  )
    return undefined;
  // The expression's own text with qualifiers dropped (as the functional index DDL writes it).
  return indexExpressionText(`SELECT ${expression}`, node, flavor).trim() || undefined;
}
