// The analysis report: the CLI JSON contract (it only grows; never rename or remove a field).

import type { Flavor } from '../flavors/capabilities.js';
import type { TargetSource } from './server-info.js';
import type { QueryIndexPlan } from '../indexing/design.js';
import type { SchemaLoadSummary } from '../schema/ddl-load.js';

/** Fixed, documented list of finding categories (docs/rules.md). */
export const categories = [
  'function-wrapped-predicate',
  'arithmetic-on-column',
  'implicit-conversion',
  'leading-wildcard',
  'locking-read',
  'sql-mode',
  'plan',
  'unsupported-syntax',
  'correctness',
  'query-shape',
] as const;
export type Category = (typeof categories)[number];

export const severities = ['info', 'warning', 'error'] as const;
export type Severity = (typeof severities)[number];

/** `drop-index`: index hygiene (an unused or redundant index), its DDL the final DROP INDEX (export/drops.ts). */
export type SuggestionKind = 'rewrite' | 'functional-index' | 'generated-column' | 'index' | 'drop-index';

/** A proposed fix. `equivalent` is true only when the fix returns exactly the same rows. */
export interface Suggestion {
  kind: SuggestionKind;
  equivalent: boolean;
  ddl: string[];
  indexName?: string;
  rewrittenSql?: string;
  notes: string[];
  /** Filled by what-if verification (EXPLAIN before/after). */
  verification?: unknown;
  /** The DDL CASTs a string column to a number or date: checked on a live sample (advice/cast-check.ts). */
  castCheck?: CastCheck;
}

/** A string column the DDL converts with CAST(… AS target): every stored value must convert. */
export interface CastCheck {
  table: string;
  column: string;
  /** The CAST target's base type, upper case: SIGNED, UNSIGNED, DECIMAL, DOUBLE, DATE, DATETIME …; EVALUATE for `evaluate`. */
  target: string;
  /**
   * Not a CAST: arithmetic the DDL computes on every row that can fail on stored values
   * (advice/evaluation-risk.ts): columns whose range can overflow (ERROR 1690), divisors that may be 0
   * (ERROR 1365), and every column the expression reads.
   */
  evaluate?: { expression: string; overflow: string[]; divisors: string[]; columns: string[] };
}

/** One finding, positions 1-based; `endColumn` is exclusive (Monaco's convention). */
export interface Finding {
  rule: string;
  category: Category;
  severity: Severity;
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  table: string | null;
  columns: string[];
  expression: string;
  suggestions: Suggestion[];
  notes?: string[];
  /** The error (or warning) the server is predicted to raise for this statement (sql-mode rules). */
  predictedError?: PredictedError;
}

/** A server error predicted before execution: code, SQLSTATE and the server's message text. */
export interface PredictedError {
  code: number;
  sqlState: string;
  message: string;
  /** True when the server raises it as a warning (the statement still succeeds). */
  warningOnly?: boolean;
}

export interface StatementReport {
  index: number;
  sql: string;
  line: number;
  column: number;
  findings: Finding[];
  /** What was not checked, e.g. a table the schema does not know (only checks that need no schema ran). */
  notes?: string[];
  /**
   * The index design for the whole statement (SELECT/UPDATE/DELETE with a known schema): per table,
   * the one index its access path needs, or the existing index that serves it (docs/cli.md).
   */
  indexPlan?: QueryIndexPlan;
}

export interface StatementError {
  index: number;
  /**
   * `INPUT_TOO_COMPLEX` when the statement is beyond the documented limits (docs/parsing.md) rather
   * than invalid; absent for syntax errors.
   */
  code?: 'INPUT_TOO_COMPLEX';
  message: string;
  line: number;
  column: number;
}

export interface AnalysisReport {
  server: { flavor: Flavor; version: string; source: TargetSource };
  statements: StatementReport[];
  errors: StatementError[];
  /**
   * Offline analysis with a schema (`--schema`, the UI's pasted DDL): what the schema loader loaded
   * and skipped (docs/cli.md, "schemaLoad"). Absent without a DDL schema.
   */
  schemaLoad?: SchemaLoadSummary;
}

const severityRank: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

/** True when any finding is at or above `threshold`. */
export function reachesSeverity(report: AnalysisReport, threshold: Severity): boolean {
  return report.statements.some((statement) =>
    statement.findings.some((finding) => severityRank[finding.severity] >= severityRank[threshold]),
  );
}

/**
 * The query an index suggestion is meant to serve: its own `rewrittenSql`, else, for a plain index
 * that accompanies an equivalent rewrite (the index serves the rewritten form only), the rewrite's
 * query; undefined means the statement as written. What-if verification EXPLAINs this query after the build.
 */
export function servedSql(finding: Pick<Finding, 'suggestions'>, suggestion: Suggestion): string | undefined {
  if (suggestion.rewrittenSql) return suggestion.rewrittenSql;
  if (suggestion.kind !== 'index') return undefined;
  return finding.suggestions.find((candidate) => candidate.kind === 'rewrite' && candidate.equivalent)
    ?.rewrittenSql;
}
