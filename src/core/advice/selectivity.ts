// Selectivity from live statistics: what to sample for a report, and the notes the samples justify.
//
// Design note: the core stays pure. A live analysis runs in two steps: `selectivityRequests(report)`
// lists, per table, the bare columns of proposed plain indexes and the expressions of proposed
// functional indexes / generated columns (unqualified SQL the service can evaluate over a bounded
// sample of the table); the service measures them (`COUNT(DISTINCT …)` over `LIMIT n` rows, read-only,
// with a time limit) and hands the numbers back to `applySelectivity`, which adds a note to every
// index suggestion whose key would be unselective. Only suggestions get notes; nothing else changes,
// so an offline analysis and a live one without statistics give the same report.

import type { Flavor } from '../flavors/capabilities.js';
import type { AnalysisReport, Finding, Suggestion } from '../model/report.js';
import { columnRefs, isNode } from '../sql/ast.js';
import { parseStatement } from '../sql/parse.js';
import { indexExpressionText } from './index-ddl.js';

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
}

const EXPRESSION_KINDS = new Set<Suggestion['kind']>(['functional-index', 'generated-column']);

/** True when `distinct` values over `sampledRows` rows make an unselective index key. */
export function isLowSelectivity(distinct: number, sampledRows: number): boolean {
  if (sampledRows < MIN_SAMPLED_ROWS || distinct < 1) return false;
  return 1 / distinct >= LOW_SELECTIVITY_SHARE;
}

/** The statistics a live analysis should sample for `report` (one request per table). */
export function selectivityRequests(report: AnalysisReport, flavor: Flavor): SelectivityRequest[] {
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
  return [...byTable.values()].filter((request) => request.columns.length + request.expressions.length > 0);
}

/**
 * A copy of `report` where every index suggestion whose key the samples show to be unselective
 * carries a note saying so (with the measured numbers). Suggestions without a sample are unchanged.
 */
export function applySelectivity(
  report: AnalysisReport,
  samples: readonly TableSample[],
  flavor: Flavor,
): AnalysisReport {
  if (samples.length === 0) return report;
  const sampleOf = (table: string) =>
    samples.find((sample) => sample.table.toLowerCase() === table.toLowerCase());
  return {
    ...report,
    statements: report.statements.map((statement) => ({
      ...statement,
      findings: statement.findings.map((finding) => {
        const sample = finding.table ? sampleOf(finding.table) : undefined;
        if (!sample) return finding;
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
      }),
    })),
  };
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
