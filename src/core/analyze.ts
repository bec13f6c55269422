// analyze(): the advisor's entry point. Splits a script, parses each statement once and runs the rules.

import type { AnalysisReport, Finding, StatementError, StatementReport } from './model/report.js';
import { EMPTY_SCHEMA, type SchemaModel } from './model/schema.js';
import type { ServerInfo, TargetSource } from './model/server-info.js';
import { rules as registry } from './rules/index.js';
import {
  resolveColumnsIn,
  toFinding,
  type ResolvedColumn,
  type Rule,
  type RuleContext,
  type StatementKind,
} from './rules/engine.js';
import { type AstNode, spanOf } from './sql/ast.js';
import { queryParts, withoutUnsupported } from './sql/salvage.js';
import { parseStatement } from './sql/parse.js';
import { collectPredicateSites, type PredicateSite } from './sql/predicates.js';
import { LineIndex, splitStatements } from './sql/split.js';
import { sessionSqlModeAfter, sqlModeSet } from './sqlmode/modes.js';
import { unknownTableNote } from './sqlmode/statement.js';
import { findTable } from './model/schema.js';
import { isNode } from './sql/ast.js';
import type { StatementSlice } from './sql/split.js';
import { TOO_COMPLEX } from './sql/limits.js';
import { provablyInvalid } from './sql/validity.js';
import { designFor } from './indexing/design.js';
import { schemaAfterAlter } from './schema/alter.js';
import { schemaFromDdl } from './schema/ddl.js';
import type { ToleratedFacts } from './sql/tolerant.js';

export interface AnalyzeOptions {
  server: ServerInfo;
  source: TargetSource;
  schema?: SchemaModel;
  /** Rule IDs disabled for the whole workspace. */
  disabledRules?: readonly string[];
  /** Opt-in rules (meta.optIn) to run as well; without `rules`, opt-in rules run only when named here. */
  enabledRules?: readonly string[];
  /** Rules to run (default: all registered). */
  rules?: readonly Rule[];
}

const KINDS: readonly StatementKind[] = [
  'select',
  'update',
  'delete',
  'insert',
  'replace',
  'create',
  'alter',
];

/** Rule IDs disabled by a `-- sargable-disable FUN001, ARI001` comment in the statement (dots allowed: FUN.001). */
export function disabledByComment(sql: string): Set<string> {
  const disabled = new Set<string>();
  for (const match of sql.matchAll(/sargable-disable\s+([A-Za-z0-9.,\s]+?)(?:\*\/|$)/gm)) {
    for (const id of (match[1] ?? '').split(/[\s,]+/))
      if (id) disabled.add(id.replace(/\./g, '').toUpperCase());
  }
  return disabled;
}

/** Analyze a script of one or more statements. Never throws for bad SQL: errors[] carries it. */
export function analyze(text: string, options: AnalyzeOptions): AnalysisReport {
  const report: AnalysisReport = {
    server: { flavor: options.server.flavor, version: options.server.version, source: options.source },
    statements: [],
    errors: [],
  };
  const analyzeSlice = statementAnalyzer(options);
  splitStatements(text).forEach((slice, index) => {
    const outcome = analyzeSlice(slice, index);
    if ('error' in outcome) report.errors.push(outcome.error);
    else report.statements.push(outcome.statement);
  });
  return report;
}

/** What one statement of a script gave: its report, or its entry of `errors[]`. */
export type StatementOutcome = { statement: StatementReport } | { error: StatementError };

/**
 * The analysis of a script one statement at a time, in order (what `analyze` does for a whole text, and
 * the CLI for a file read as a stream): the analyzer keeps what earlier statements changed (the schema
 * after CREATE/ALTER/DROP TABLE, the session sql_mode after SET) and nothing else.
 */
export function statementAnalyzer(
  options: AnalyzeOptions,
): (slice: StatementSlice, index: number) => StatementOutcome {
  let schema = options.schema ?? EMPTY_SCHEMA;
  const activeRules = (options.rules ?? Object.values(registry)).filter(
    (rule) =>
      !options.disabledRules?.includes(rule.meta.id) &&
      !rule.meta.replacedBy &&
      (options.rules !== undefined ||
        !rule.meta.optIn ||
        options.enabledRules?.includes(rule.meta.id) === true),
  );
  // A `SET sql_mode = '…'` in the script changes the session mode for the statements after it.
  let server = options.server;
  // `||` is OR unless the session's sql_mode has PIPES_AS_CONCAT: the parse needs it for precedence.
  let pipes = { mode: '', concat: false };
  const parse = (sql: string) => {
    if (pipes.mode !== server.sqlMode.session || !pipes.mode) {
      const mode = server.sqlMode.session;
      pipes = { mode, concat: sqlModeSet(mode, server.flavor).has('PIPES_AS_CONCAT') };
    }
    return parseStatement(sql, options.server.flavor, { pipesAsConcat: pipes.concat });
  };

  return (slice, index) => {
    try {
      return analyzeStatement(slice, index);
    } catch (error) {
      // Input deeper than a walker's recursion: a documented per-statement error, never a crash.
      if (!(error instanceof RangeError)) throw error;
      return {
        error: {
          index,
          code: TOO_COMPLEX,
          message: `${TOO_COMPLEX}: the statement is too complex to analyse (its expressions nest deeper than the analyser can follow). Split it, or move long OR lists into IN (…) lists.`,
          line: slice.line,
          column: slice.column,
        },
      };
    }
  };

  function analyzeStatement(slice: StatementSlice, index: number): StatementOutcome {
    const lines = sliceLines(slice);
    const parsed = parse(slice.sql);
    if (!parsed.ok && !parsed.code && !provablyInvalid(slice.sql, options.server.flavor)) {
      // The grammar does not know this syntax, but nothing proves the statement invalid: say it was
      // not fully analysed (PRS001) instead of reporting a syntax error the server would not raise.
      const statement: StatementReport = {
        index,
        sql: slice.sql,
        line: slice.line,
        column: slice.column,
        findings: [],
      };
      // Without the constructs of one query the grammar cannot read (MEMBER OF, JSON_TABLE, FOR
      // SYSTEM_TIME, RETURNING, LATERAL), the whole statement may parse: it is checked as such, its
      // findings inside a blanked construct dropped. Otherwise the queries inside it that the grammar
      // reads on their own get their checks (sql/salvage.ts).
      const blanked = withoutUnsupported(slice.sql);
      const whole = blanked && parse(blanked.text).ok ? blanked : null;
      const inBlank = (at: number) =>
        blanked?.constructs.some((construct) => at >= construct.start && at < construct.end) ?? false;
      const parts = whole
        ? [{ start: 0, end: slice.sql.length, text: whole.text }]
        : queryParts(blanked?.text ?? slice.sql).filter((part) => !inBlank(part.start));
      const checked: { line: number; column: number }[] = [];
      for (const part of parts) {
        if (!parse(part.text).ok) continue;
        const at = lines.position(slice.offset + part.start);
        let outcome: StatementOutcome;
        try {
          outcome = analyzeStatement({ sql: part.text, offset: slice.offset + part.start, ...at }, index);
        } catch (error) {
          // Too deep for a walker: the part stays unchecked, the statement is still reported (PRS001).
          if (error instanceof RangeError) continue;
          throw error;
        }
        if (!('statement' in outcome)) continue;
        checked.push(at);
        if (whole && outcome.statement.notes) statement.notes = outcome.statement.notes;
        for (const finding of outcome.statement.findings) {
          if (blanked && inBlank(offsetIn(slice, finding))) continue;
          statement.findings.push({
            ...finding,
            // A rewrite of the part is not a rewrite of the statement: keep only what stands alone.
            suggestions: finding.suggestions.filter(
              (suggestion) => suggestion.kind !== 'rewrite' && suggestion.rewrittenSql === undefined,
            ),
          });
        }
      }
      if (
        activeRules.some((rule) => rule.meta.id === 'PRS001') &&
        !disabledByComment(slice.sql).has('PRS001')
      ) {
        const line = slice.line + parsed.line - 1;
        const column = parsed.line === 1 ? slice.column + parsed.column - 1 : parsed.column;
        const near = /near '([^']*)'/.exec(parsed.message)?.[1];
        const finding = toFinding(registry.PRS001!.meta, {
          messageId:
            whole && checked.length > 0
              ? 'unsupportedConstruct'
              : checked.length > 0
                ? 'unsupportedPart'
                : 'unsupported',
          data: {
            constructs: [...new Set(whole?.constructs.map((construct) => construct.construct))].join(', '),
            line,
            column,
            near: near ? `'${near}'` : 'the end',
            parts: checked.map((part) => `${part.line}:${part.column}`).join(', '),
          },
          span: { start: 0, end: slice.sql.length },
          table: null,
          columns: [],
          expression: '',
        });
        const end = lines.position(slice.offset + slice.sql.length);
        const { span: _span, ...rest } = finding;
        statement.findings.unshift({ ...rest, line, column, endLine: end.line, endColumn: end.column });
      }
      return { statement };
    }
    if (!parsed.ok) {
      return {
        error: {
          index,
          ...(parsed.code ? { code: parsed.code } : {}),
          message: parsed.message,
          line: slice.line + parsed.line - 1,
          column: parsed.line === 1 ? slice.column + parsed.column - 1 : parsed.column,
        },
      };
    }
    const statement: StatementReport = {
      index,
      sql: slice.sql,
      line: slice.line,
      column: slice.column,
      findings: [],
    };
    if (parsed.elidedRows)
      statement.notes = [
        `Only the first ${parsed.elidedRows.kept.toLocaleString('en-US')} of ${parsed.elidedRows.total.toLocaleString('en-US')} rows were checked: the statement is ${(slice.sql.length / 1_048_576).toFixed(1)} MB (docs/parsing.md, "Limits").`,
      ];
    const kind = statementKind(parsed.ast);
    const disabled = disabledByComment(slice.sql);
    let sites: PredicateSite[] | undefined;
    const resolved = new WeakMap<PredicateSite, WeakMap<object, ResolvedColumn[]>>();
    const context: RuleContext = {
      sql: slice.sql,
      ast: parsed.ast,
      kind,
      server,
      flavor: server.flavor,
      schema,
      ...(parsed.tolerated ? { tolerated: parsed.tolerated } : {}),
      sites: () => (sites ??= collectPredicateSites(parsed.ast)),
      resolveColumns: (site, expression) => {
        // Several rules and the advice resolve the same operands again: once per statement is enough.
        if (typeof expression !== 'object' || expression === null)
          return resolveColumnsIn(schema, server.database, site, expression);
        let bySite = resolved.get(site);
        if (!bySite) resolved.set(site, (bySite = new WeakMap()));
        let columns = bySite.get(expression);
        if (!columns)
          bySite.set(expression, (columns = resolveColumnsIn(schema, server.database, site, expression)));
        return columns;
      },
      textOf: (node) => {
        const span = spanOf(node);
        return span ? slice.sql.slice(span.start, span.end) : '';
      },
      report: () => undefined,
    };
    for (const rule of activeRules) {
      if (!rule.meta.appliesTo.includes(kind) || disabled.has(rule.meta.id)) continue;
      rule.detect({
        ...context,
        report: (input) => {
          const { span, ...finding } = toFinding(rule.meta, input);
          const trimmed = trimSpan(slice.sql, span);
          const start = lines.position(slice.offset + trimmed.start);
          const end = lines.position(slice.offset + trimmed.end);
          const {
            rule: id,
            category,
            severity,
            message,
            table,
            columns,
            expression,
            suggestions,
            notes,
            predictedError,
          } = finding;
          statement.findings.push({
            rule: id,
            category,
            severity,
            message,
            line: start.line,
            column: start.column,
            endLine: end.line,
            endColumn: end.column,
            table,
            columns,
            expression: expression.trim(),
            suggestions,
            ...(notes ? { notes } : {}),
            ...(predictedError ? { predictedError } : {}),
          } satisfies Finding);
        },
      });
    }
    if (kind === 'select' || kind === 'update' || kind === 'delete') {
      const plan = designFor(parsed.ast, slice.sql, schema, server);
      if (plan)
        plan.tables = plan.tables.filter((entry) => !notIndexable(schema, entry.table, server.database));
      if (plan && plan.tables.length > 0) statement.indexPlan = plan;
    }
    withoutIndexesOnViews(statement.findings, schema, server.database);
    const unknown =
      schema.tables.length > 0 || (schema.skipped?.length ?? 0) > 0
        ? unknownTables(parsed.ast, kind, schema, server.database)
        : [];
    if (unknown.length > 0)
      statement.notes = [
        ...(statement.notes ?? []),
        ...unknown.map((table) => {
          const bare = table.slice(table.lastIndexOf('.') + 1).toLowerCase();
          const skipped = schema.skipped?.find((entry) => entry.table?.toLowerCase() === bare);
          return unknownTableNote(table, skipped);
        }),
      ];
    schema = schemaAfter(schema, parsed, slice.sql, server, statement.findings);
    const nextMode = sessionSqlModeAfter(parsed.ast, server.flavor, server.version);
    if (nextMode !== undefined) server = { ...server, sqlMode: { ...server.sqlMode, session: nextMode } };
    statement.findings.sort((a, b) => a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule));
    return { statement };
  }
}

/**
 * 1-based line and column, in the script, of an offset of the script inside the statement `slice`
 * (what a LineIndex of the whole script gives, from the statement's text alone).
 */
function sliceLines(slice: StatementSlice): { position(offset: number): { line: number; column: number } } {
  let index: LineIndex | undefined;
  return {
    position(offset) {
      const local = (index ??= new LineIndex(slice.sql)).position(offset - slice.offset);
      return local.line === 1
        ? { line: slice.line, column: slice.column + local.column - 1 }
        : { line: slice.line + local.line - 1, column: local.column };
    },
  };
}

/**
 * The schema as later statements of the script see it: a CREATE TABLE the server would accept
 * replaces the table, DROP TABLE removes it, ALTER TABLE and RENAME TABLE change it
 * (schema/alter.ts). A statement we predict to fail (e.g. ERROR 1067) changes nothing, as on the server.
 */
function schemaAfter(
  schema: SchemaModel,
  parsed: { ast: AstNode; tolerated?: ToleratedFacts },
  sql: string,
  server: ServerInfo,
  findings: readonly Finding[],
): SchemaModel {
  const { ast } = parsed;
  const type = String(ast.type ?? '').toLowerCase();
  const keyword = String(ast.keyword ?? '').toLowerCase();
  const changes =
    type === 'alter' || type === 'rename' || (keyword === 'table' && (type === 'create' || type === 'drop'));
  if (!changes) return schema;
  if (findings.some((finding) => finding.predictedError && !finding.predictedError.warningOnly))
    return schema;
  if (type === 'alter' || type === 'rename')
    return schemaAfterAlter(schema, ast, parsed.tolerated, server.flavor, server.database);
  const names = (Array.isArray(ast.table) ? ast.table : Array.isArray(ast.name) ? ast.name : []) as {
    table?: unknown;
  }[];
  const dropped = new Set(names.map((name) => String(name.table ?? '').toLowerCase()));
  if (type === 'drop') {
    return { ...schema, tables: schema.tables.filter((table) => !dropped.has(table.name.toLowerCase())) };
  }
  const created = schemaFromDdl(sql, server.flavor).schema.tables;
  if (created.length === 0) return schema;
  const known = (name: string) =>
    schema.tables.some((table) => table.name.toLowerCase() === name.toLowerCase());
  if (ast.if_not_exists && created.some((table) => known(table.name))) return schema;
  const replaced = new Set(created.map((table) => table.name.toLowerCase()));
  return {
    ...schema,
    source: schema.source === 'none' ? 'ddl' : schema.source,
    tables: [...schema.tables.filter((table) => !replaced.has(table.name.toLowerCase())), ...created],
  };
}

/** `view` / `sequence` when the table is one (neither can get an index), else null. */
function notIndexable(
  schema: SchemaModel,
  name: string | null,
  database: string | null,
): 'view' | 'sequence' | null {
  return (name && findTable(schema, name, database)?.kind) || null;
}

/**
 * A view has no indexes of its own (ALTER TABLE on a view fails with ERROR 1347): index, functional
 * index and generated-column suggestions on a view's columns are dropped, with a note to index the
 * base table the view reads (views and sequences come from DDL text or the live loader).
 */
function withoutIndexesOnViews(findings: Finding[], schema: SchemaModel, database: string | null): void {
  for (const finding of findings) {
    const kind = notIndexable(schema, finding.table, database);
    if (!kind) continue;
    const kept = finding.suggestions.filter((suggestion) => suggestion.kind === 'rewrite');
    if (kept.length === finding.suggestions.length) continue;
    finding.suggestions = kept;
    finding.notes = [
      ...(finding.notes ?? []),
      kind === 'view'
        ? `${finding.table} is a view: a view has no indexes of its own, so index the column of the base table it reads.`
        : `${finding.table} is a sequence: its one row holds the sequence's state and cannot be indexed.`,
    ];
  }
}

/**
 * Tables a DML statement reads or writes that the (non-empty) schema does not know: their statements
 * are still checked for what needs no column definitions, and say so. CTE names are not tables.
 */
function unknownTables(
  ast: AstNode,
  kind: StatementKind,
  schema: SchemaModel,
  database: string | null,
): string[] {
  if (!['select', 'insert', 'replace', 'update', 'delete'].includes(kind)) return [];
  const ctes = new Set<string>();
  const names = new Map<string, string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isNode(value)) return;
    if (Array.isArray(value.with))
      for (const cte of value.with)
        if (isNode(cte) && isNode(cte.name) && typeof cte.name.value === 'string')
          ctes.add(cte.name.value.toLowerCase());
    if (value.type !== 'column_ref' && typeof value.table === 'string' && 'db' in value) {
      const db = typeof value.db === 'string' ? value.db : null;
      if (!findTable(schema, value.table, db ?? database))
        names.set(`${db ?? ''}.${value.table}`.toLowerCase(), db ? `${db}.${value.table}` : value.table);
    }
    for (const key in value) if (key !== 'loc') visit(value[key]);
  };
  visit(ast);
  return [...names].filter(([key]) => !ctes.has(key.replace(/^\./, ''))).map(([, name]) => name);
}

/** node-sql-parser's spans of binary expressions include trailing blanks; markers should not. */
function trimSpan(sql: string, span: { start: number; end: number }): { start: number; end: number } {
  let { start, end } = span;
  while (end > start && /\s/.test(sql[end - 1] ?? '')) end--;
  while (start < end && /\s/.test(sql[start] ?? '')) start++;
  return { start, end };
}

function statementKind(ast: AstNode): StatementKind {
  const type = typeof ast.type === 'string' ? ast.type.toLowerCase() : 'other';
  return (KINDS as readonly string[]).includes(type) ? (type as StatementKind) : 'other';
}

/** The offset in the statement where a finding starts (findings carry script lines and columns). */
function offsetIn(slice: StatementSlice, finding: { line: number; column: number }): number {
  if (finding.line === slice.line) return finding.column - slice.column;
  let offset = 0;
  for (let line = slice.line; line < finding.line; line++) {
    const next = slice.sql.indexOf('\n', offset);
    if (next < 0) return slice.sql.length;
    offset = next + 1;
  }
  return offset + finding.column - 1;
}
