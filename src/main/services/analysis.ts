// Analysis as a service: picks the target and schema (live or offline DDL) and runs the core analyzer.

import {
  analyze,
  statementAnalyzer,
  type AnalyzeOptions,
  type StatementOutcome,
} from '../../core/analyze.js';
import type { StatementSlice } from '../../core/sql/split.js';
import { DEFAULT_TARGET, type Flavor } from '../../core/flavors/index.js';
import type { AnalysisReport, StatementReport } from '../../core/model/report.js';
import { EMPTY_SCHEMA, type SchemaModel } from '../../core/model/schema.js';
import type { ServerInfo, TargetSource } from '../../core/model/server-info.js';
import { offlineServerInfo } from '../../core/sqlmode/modes.js';
import { schemaFromDdl } from '../../core/schema/ddl.js';
import type { SchemaLoadSummary, SchemaSource } from '../../core/schema/ddl-load.js';
import { parseVersion } from '../../core/flavors/version.js';
import { AdvisorError } from '../../shared/errors.js';
import type { Connection } from 'mysql2/promise';
import {
  applyCastChecks,
  applySelectivity,
  castCheckRequests,
  selectivityRequests,
  type SelectivityRequest,
} from '../../core/advice/index.js';
import { sampleCastChecks } from './cast-check.js';
import {
  sampleSelectivity,
  type MeasuredSample,
  type SampleOptions,
  type SampleSkip,
} from './selectivity.js';

export interface OfflineTarget {
  flavor: Flavor;
  version: string;
}

/** Validate a `--flavor/--server-version` pair or UI choice. */
export function offlineTarget(flavor: string | undefined, version: string | undefined): OfflineTarget {
  const chosenFlavor = (flavor ?? DEFAULT_TARGET.flavor).toLowerCase();
  if (chosenFlavor !== 'mysql' && chosenFlavor !== 'mariadb' && chosenFlavor !== 'percona') {
    throw new AdvisorError('INVALID_INPUT', `Unknown flavor '${flavor}': use mysql, mariadb or percona.`);
  }
  const chosenVersion = version ?? (chosenFlavor === 'mariadb' ? '10.11.0' : DEFAULT_TARGET.version);
  if (!parseVersion(chosenVersion)) {
    throw new AdvisorError(
      'INVALID_INPUT',
      `Invalid server version '${version}': use a version such as 8.0.33 or 10.11.6.`,
    );
  }
  return { flavor: chosenFlavor, version: chosenVersion };
}

/** Offline schema from DDL text (one text, or several files applied in order). */
export function offlineSchema(
  ddl: string | readonly SchemaSource[] | undefined,
  flavor: Flavor,
  version?: string,
): SchemaModel {
  return offlineSchemaLoad(ddl, flavor, version).schema;
}

/**
 * Offline schema with the loader's account (loaded N tables, skipped M with lines and reasons).
 * Text that defines no table at all although it tried (every CREATE TABLE skipped) is an input error.
 */
export function offlineSchemaLoad(
  ddl: string | readonly SchemaSource[] | undefined,
  flavor: Flavor,
  version?: string,
): { schema: SchemaModel; summary: SchemaLoadSummary | null } {
  const empty =
    typeof ddl === 'string' || ddl === undefined ? !ddl?.trim() : ddl.every((source) => !source.text.trim());
  if (empty) return { schema: EMPTY_SCHEMA, summary: null };
  const { schema, summary } = schemaFromDdl(ddl!, flavor, version);
  assertSchemaLoaded(schema, summary);
  return { schema, summary };
}

/** Schema text that defines no table at all although it tried (every CREATE TABLE skipped) is an input error. */
export function assertSchemaLoaded(schema: SchemaModel, summary: SchemaLoadSummary): void {
  if (summary.skipped.length > 0 && schema.tables.length === 0) {
    const first = summary.skipped[0]!;
    throw new AdvisorError(
      'PARSE_FAILED',
      `The schema DDL could not be read: ${summary.skipped.length} statement(s) skipped, the first ${first.source ? `in ${first.source} ` : ''}at line ${first.line}: ${first.statement}: ${first.reason}`,
      {
        hint: 'Provide CREATE TABLE statements (for example from mysqldump --no-data or SHOW CREATE TABLE).',
      },
    );
  }
}

/** Run the analyzer for a resolved server and schema. */
export function runAnalysis(
  sql: string,
  server: ServerInfo,
  source: TargetSource,
  schema: SchemaModel,
  options: AnalysisOptions = {},
): AnalysisReport {
  return analyze(sql, analyzeOptions(server, source, schema, options));
}

function analyzeOptions(
  server: ServerInfo,
  source: TargetSource,
  schema: SchemaModel,
  options: AnalysisOptions,
): AnalyzeOptions {
  const effective =
    options.sqlMode === undefined
      ? server
      : { ...server, sqlMode: { ...server.sqlMode, session: options.sqlMode } };
  return {
    server: effective,
    source,
    schema,
    ...(options.disabledRules?.length
      ? { disabledRules: options.disabledRules.map((id) => id.replace(/\./g, '').toUpperCase()) }
      : {}),
    ...(options.enabledRules?.length
      ? { enabledRules: options.enabledRules.map((id) => id.replace(/\./g, '').toUpperCase()) }
      : {}),
  };
}

export interface AnalysisOptions {
  /** Check statements under this (validated) sql_mode instead of the server's session mode. */
  sqlMode?: string;
  /** Rule IDs disabled for this analysis (from the workspace or `--disable`). */
  disabledRules?: readonly string[];
  /** Opt-in rules (off by default, e.g. QRY001) to run as well (`--enable`, the UI's opt-in toggles). */
  enabledRules?: readonly string[];
}

/**
 * Analysis against a live server: the report of {@link runAnalysis}, then selectivity measured on the
 * server (bounded COUNT(DISTINCT …) samples, read-only, time-limited) and weighed into the advice.
 * Sampling never fails the analysis: without numbers the report is the offline one.
 */
export async function runLiveAnalysis(
  connection: Connection,
  sql: string,
  server: ServerInfo,
  schema: SchemaModel,
  options: AnalysisOptions & { sample?: SampleOptions | false } = {},
): Promise<AnalysisReport> {
  const analysed = runAnalysis(sql, server, 'dsn', schema, options);
  if (!server.database || options.sample === false || schema.source !== 'live') return analysed;
  const report = await checkCasts(connection, server, analysed, options.sample);
  const requests = selectivityRequests(report, server.flavor, schema);
  if (requests.length === 0) return report;
  const skipped: SampleSkip[] = [];
  const samples = await sampleSelectivity(connection, server, server.database, requests, {
    ...(options.sample ?? {}),
    onSkip: (skip) => skipped.push(skip),
  }).catch(() => []);
  return noteSkippedSamples(
    noteBasis(applySelectivity(report, samples, server.flavor, schema), samples),
    skipped,
  );
}

/**
 * Proposed DDL that CASTs a string column to a number or date, checked on a bounded sample of the
 * stored values: withdrawn when some would not convert (the server would reject the DDL). Read-only.
 */
async function checkCasts(
  connection: Connection,
  server: ServerInfo,
  report: AnalysisReport,
  sample: SampleOptions | undefined,
): Promise<AnalysisReport> {
  const checks = castCheckRequests(report);
  if (checks.length === 0 || !server.database) return report;
  const samples = await sampleCastChecks(connection, server, server.database, checks, sample ?? {}).catch(
    () => [],
  );
  return applyCastChecks(report, samples);
}

/**
 * Where the numbers behind a low-selectivity note came from (histogram, index cardinality or a random
 * sample), with the rows they cover and the confidence, on each statement that got such a note.
 */
function noteBasis(report: AnalysisReport, samples: readonly MeasuredSample[]): AnalysisReport {
  return {
    ...report,
    statements: report.statements.map((statement) => {
      const tables = new Set(
        statement.findings
          .filter((finding) =>
            finding.suggestions.some((suggestion) =>
              suggestion.notes.some((note) => note.startsWith('Low selectivity (live statistics)')),
            ),
          )
          .map((finding) => finding.table?.toLowerCase()),
      );
      const notes = samples
        .filter((sample) => tables.has(sample.table.toLowerCase()))
        .map(
          (sample) =>
            `Selectivity of ${sample.table}: ${Object.entries(sample.basis)
              .map(
                ([key, basis]) =>
                  `${key.replace(/^(column|expression):/, '')} ${sample.distinct[key]} distinct (${basis.detail}; ${basis.confidence})`,
              )
              .join('; ')}.`,
        );
      return notes.length === 0 ? statement : { ...statement, notes: [...(statement.notes ?? []), ...notes] };
    }),
  };
}

/** Say on each statement that reads a skipped table what the selectivity sample left out, and why. */
function noteSkippedSamples(report: AnalysisReport, skipped: readonly SampleSkip[]): AnalysisReport {
  if (skipped.length === 0) return report;
  return {
    ...report,
    statements: report.statements.map((statement) => {
      const tables = new Set(statement.findings.map((finding) => finding.table?.toLowerCase()));
      const notes = skipped
        .filter((skip) => tables.has(skip.table.toLowerCase()))
        .map((skip) =>
          skip.expression === null
            ? `Selectivity of ${skip.table} not sampled: ${skip.reason}.`
            : `Selectivity of ${skip.expression} on ${skip.table} not sampled: ${skip.reason} (samples only evaluate built-in functions without side effects).`,
        );
      return notes.length === 0 ? statement : { ...statement, notes: [...(statement.notes ?? []), ...notes] };
    }),
  };
}

/**
 * The live analysis of a script read as a stream (`sargable analyze --dsn` on a large file or standard
 * input): statements analysed one at a time against the live schema, and each batch then given what
 * runLiveAnalysis adds (bounded selectivity samples, their basis and skips). A table is sampled once for
 * the columns and expressions asked so far, and again only when a later statement asks for more.
 */
export function liveStatementAnalysis(
  connection: Connection,
  server: ServerInfo,
  schema: SchemaModel,
  options: AnalysisOptions & { sample?: SampleOptions | false } = {},
): {
  server: AnalysisReport['server'];
  analyzeSlice: (slice: StatementSlice, index: number) => StatementOutcome;
  finish: (statements: StatementReport[]) => Promise<StatementReport[]>;
} {
  const header = { flavor: server.flavor, version: server.version, source: 'dsn' as const };
  const sampled = new Map<
    string,
    { keys: Set<string>; sample: MeasuredSample | null; skips: SampleSkip[] }
  >();
  const keysOf = (request: SelectivityRequest) => [
    ...request.columns.map((column) => `column:${column.toLowerCase()}`),
    ...request.expressions.map((expression) => expression.key),
    ...(request.predicates ?? []).map((predicate) => predicate.key),
  ];
  return {
    server: header,
    analyzeSlice: statementAnalyzer(analyzeOptions(server, 'dsn', schema, options)),
    finish: async (statements) => {
      if (!server.database || options.sample === false || schema.source !== 'live') return statements;
      const report = await checkCasts(
        connection,
        server,
        { server: header, statements, errors: [] },
        options.sample,
      );
      const requests = selectivityRequests(report, server.flavor, schema);
      if (requests.length === 0) return report.statements;
      const samples: MeasuredSample[] = [];
      const skipped: SampleSkip[] = [];
      for (const request of requests) {
        const key = request.table.toLowerCase();
        let known = sampled.get(key);
        if (!known || keysOf(request).some((wanted) => !known!.keys.has(wanted))) {
          const skips: SampleSkip[] = [];
          const [sample] = await sampleSelectivity(connection, server, server.database, [request], {
            ...(options.sample ?? {}),
            onSkip: (skip) => skips.push(skip),
          }).catch(() => []);
          known = { keys: new Set(keysOf(request)), sample: sample ?? null, skips };
          sampled.set(key, known);
        }
        if (known.sample) samples.push(known.sample);
        skipped.push(...known.skips);
      }
      return noteSkippedSamples(
        noteBasis(applySelectivity(report, samples, server.flavor, schema), samples),
        skipped,
      ).statements;
    },
  };
}

/**
 * The offline analysis of a script read as a stream (the CLI for large files): the report's header and
 * schema summary, and an analyzer fed one statement at a time, in order.
 */
export function offlineStatementAnalysis(
  target: OfflineTarget,
  source: TargetSource,
  ddl?: string | readonly SchemaSource[] | { schema: SchemaModel; summary: SchemaLoadSummary },
  options: AnalysisOptions = {},
): {
  server: AnalysisReport['server'];
  schemaLoad?: SchemaLoadSummary;
  analyzeSlice: (slice: StatementSlice, index: number) => StatementOutcome;
} {
  const server = offlineServerInfo(target.flavor, target.version);
  const { schema, summary } =
    ddl !== undefined && typeof ddl === 'object' && 'schema' in ddl
      ? ddl
      : offlineSchemaLoad(ddl, target.flavor, target.version);
  return {
    server: { flavor: server.flavor, version: server.version, source },
    ...(summary ? { schemaLoad: summary } : {}),
    analyzeSlice: statementAnalyzer(analyzeOptions(server, source, schema, options)),
  };
}

/** Analysis without a server; with a DDL schema the report says what the loader loaded and skipped. */
export function runOfflineAnalysis(
  sql: string,
  target: OfflineTarget,
  source: TargetSource,
  ddl?: string | readonly SchemaSource[] | { schema: SchemaModel; summary: SchemaLoadSummary },
  options: AnalysisOptions = {},
): AnalysisReport {
  const server = offlineServerInfo(target.flavor, target.version);
  // A schema loaded before (a schema file, main/services/schema-files.ts), or DDL text to load now.
  const { schema, summary } =
    ddl !== undefined && typeof ddl === 'object' && 'schema' in ddl
      ? ddl
      : offlineSchemaLoad(ddl, target.flavor, target.version);
  const report = runAnalysis(sql, server, source, schema, options);
  return summary ? { ...report, schemaLoad: summary } : report;
}
