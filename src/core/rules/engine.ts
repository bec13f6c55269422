// The rule engine: rule metadata, the context rules read, and how findings are reported.
//
// Rules never parse: the engine parses each statement once, collects predicate sites and
// resolves columns, then calls each rule whose `appliesTo` contains the statement type.

import type { Flavor } from '../flavors/capabilities.js';
import type { Category, Finding, PredictedError, Severity, Suggestion } from '../model/report.js';
import { findColumn, findTable, type ColumnInfo, type SchemaModel, type TableInfo } from '../model/schema.js';
import type { ServerInfo } from '../model/server-info.js';
import { type AstNode, columnRefs, type Span, spanOf } from '../sql/ast.js';
import type { ToleratedFacts } from '../sql/tolerant.js';
import { resolveScopeTable, type PredicateSite, type ScopeTable } from '../sql/predicates.js';

export type StatementKind =
  'select' | 'update' | 'delete' | 'insert' | 'replace' | 'create' | 'alter' | 'other';

/**
 * Rule metadata: the stable contract of a rule (docs are generated from it). `M` is the union of the rule's
 * message IDs: `messages` must name each one, and `report()` accepts only those (a typo is a compile error).
 */
export interface RuleMeta<M extends string = string> {
  /** Stable ID, never reused (e.g. `FUN001`). */
  id: string;
  /** Dotted name, e.g. `predicate.function-wrapped-column` */
  name: string;
  category: Category;
  severity: Severity;
  title: string;
  /** Why it matters, in a sentence or two. */
  rationale: string;
  appliesTo: readonly StatementKind[];
  /** Version gates by flavor, e.g. `{ mysql: '>=5.7', mariadb: '>=10.2' }`; absent = all. */
  flavors?: Partial<Record<'mysql' | 'mariadb', string>>;
  messages: Record<M, string>;
  docs: { antiPattern: string; bestPractice: string; notes?: string[] };
  /** Set when the rule is retired: the ID of its successor. */
  replacedBy?: string;
  /** Off unless enabled (AnalyzeOptions.enabledRules): style advice that would flag most real queries. */
  optIn?: boolean;
  /**
   * The same check in other advisors, by their own IDs (SOAR heuristic rules, SQLE rule names,
   * pt-query-advisor rules); only where one flags the same problem.
   */
  peers?: { soar?: readonly string[]; sqle?: readonly string[]; ptQueryAdvisor?: readonly string[] };
}

/** A column reference resolved through the scope and the schema. */
export interface ResolvedColumn {
  node: AstNode;
  qualifier: string | null;
  column: string;
  table: TableInfo | null;
  info: ColumnInfo | null;
  /** The name the query used for the table (alias), when resolved. */
  scopeTable: ScopeTable | null;
}

export interface ReportInput<M extends string = string> {
  messageId: M;
  data?: Record<string, string | number>;
  /** Range to mark (statement-relative). */
  span: Span;
  table: string | null;
  columns: string[];
  expression: string;
  suggestions?: Suggestion[];
  notes?: string[];
  severity?: Severity;
  predictedError?: PredictedError;
}

/** What a rule sees; `M` is the rule's message IDs. */
export interface RuleContext<M extends string = string> {
  readonly sql: string;
  readonly ast: AstNode;
  readonly kind: StatementKind;
  readonly server: ServerInfo;
  readonly flavor: Flavor;
  readonly schema: SchemaModel;
  /** Syntax the parser rejected and the tolerant re-parse removed (GROUP BY … DESC, UPDATE IGNORE …). */
  readonly tolerated?: ToleratedFacts;
  /** Predicate sites of the statement (WHERE, ON, HAVING, ORDER BY, GROUP BY), in source order. */
  sites(): readonly PredicateSite[];
  /** Resolve the columns referenced in an expression through the site's scope. */
  resolveColumns(site: PredicateSite, expression: unknown): ResolvedColumn[];
  /** The statement text of a node (exact, as written). */
  textOf(node: unknown): string;
  /** A property, not a method, so the parameter is checked contravariantly: a helper typed for other IDs is refused. */
  report: (input: ReportInput<M>) => void;
}

export interface Rule<M extends string = string> {
  meta: RuleMeta<M>;
  detect(context: RuleContext<M>): void;
}

/**
 * Identity helper that type-checks a rule definition. `M` is inferred from the keys of `meta.messages`, so
 * `context.report({ messageId })` with an ID the rule does not declare fails to compile (the model is
 * typescript-eslint's `RuleCreator`). `toFinding` still checks at run time for callers outside TypeScript.
 */
export function defineRule<M extends string>(rule: Rule<M>): Rule<M> {
  return rule;
}

/** Fill `{{name}}` placeholders of a message. */
export function formatMessage(template: string, data: Record<string, string | number> = {}): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_match, key: string) => String(data[key] ?? `{{${key}}}`));
}

/** Resolution shared by every rule (exported for the engine and tests). */
export function resolveColumnsIn(
  schema: SchemaModel,
  database: string | null,
  site: PredicateSite,
  expression: unknown,
): ResolvedColumn[] {
  return columnRefs(expression).map((ref) => {
    const tableOf = (scopeTable: ScopeTable): TableInfo | undefined =>
      scopeTable.table ? findTable(schema, scopeTable.table, scopeTable.database ?? database) : undefined;
    const scopeTable =
      resolveScopeTable(site.scope, ref.table, (candidate) => {
        const table = tableOf(candidate);
        return table ? Boolean(findColumn(table, ref.column)) : undefined;
      }) ?? null;
    const table = scopeTable ? (tableOf(scopeTable) ?? null) : null;
    const info = table ? (findColumn(table, ref.column) ?? null) : null;
    return { node: ref.node, qualifier: ref.table, column: ref.column, table, info, scopeTable };
  });
}

/** Build a Finding from a report (positions are made script-relative by the caller). */
export function toFinding(
  meta: RuleMeta,
  input: ReportInput,
): Omit<Finding, 'line' | 'column' | 'endLine' | 'endColumn'> & { span: Span } {
  const template = meta.messages[input.messageId];
  if (template === undefined) throw new Error(`Rule ${meta.id} has no message '${input.messageId}'`);
  return {
    rule: meta.id,
    category: meta.category,
    severity: input.severity ?? meta.severity,
    message: formatMessage(template, input.data),
    table: input.table,
    columns: input.columns,
    expression: input.expression,
    suggestions: input.suggestions ?? [],
    ...(input.notes && input.notes.length > 0 ? { notes: input.notes } : {}),
    ...(input.predictedError ? { predictedError: input.predictedError } : {}),
    span: input.span,
  };
}

export { spanOf };
