// `sargable analyze`: find non-sargable predicates in SQL files, offline or against a live server.

import { cliConnections, printNotices } from '../connections.js';
import {
  reachesSeverity,
  servedSql,
  severities,
  type AnalysisReport,
  type Severity,
} from '../../core/model/report.js';
import type { ConnectionTarget } from '../../main/services/connection.js';
import { verifyWhatIf } from '../../main/services/what-if.js';
import { AdvisorError } from '../../shared/errors.js';
import type { ServerInfo } from '../../core/model/server-info.js';
import { loadSchema } from '../../main/services/schema.js';
import {
  liveStatementAnalysis,
  offlineStatementAnalysis,
  offlineTarget,
  runLiveAnalysis,
  runOfflineAnalysis,
} from '../../main/services/analysis.js';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { analyzeStream, STREAM_THRESHOLD_BYTES, type StreamAnalysis } from '../stream-analysis.js';
import { parseWorkspace } from '../../core/workspace/index.js';
import { rules as registry } from '../../core/rules/index.js';
import { whatIfDdl } from '../../core/indexing/index.js';
import { parseCommonArgs } from '../args.js';
import { checkSqlMode } from './sqlmode.js';
import { dsnWithPassword, loadSchemaSources, readInput, readText, stdinChunks } from '../input.js';
import { UsageError, type CliCommand, type CliIo } from '../io.js';
import { formatReportText } from '../format.js';

export const usage = `Usage: sargable analyze [options] [FILE|-]

Find predicates no index can serve (functions or arithmetic on columns, …) and propose fixes.

Options:
  --schema FILE|DIR|-      the schema for offline analysis: a dump (mysqldump/mariadb-dump, with or
                           without data), SHOW CREATE TABLE output, or DDL; repeatable; a directory
                           reads its *.sql files (mysqldump --tab); - reads standard input (then
                           give the SQL as FILE); read as a stream, any size
  --dsn URL                analyze against a live server: mysql://user@host:3306/db
  --flavor mysql|mariadb   offline target flavor (default mysql)
  --server-version X.Y.Z   offline target version (default 8.0.33, MariaDB 10.11.0)
  --format text|json       output format (default text)
  --fail-on SEVERITY       exit 1 when a finding reaches info|warning|error (default: never)
  --sql-mode MODES         check statements under this sql_mode instead of the server's (or the
                           target version's default), e.g. STRICT_TRANS_TABLES,NO_ZERO_DATE
  --disable RULES          do not run these rules (comma-separated IDs, e.g. IDX001,FUN.001)
  --enable RULES           also run these opt-in rules, off by default (comma-separated IDs, e.g.
                           QRY001)
  --workspace FILE         honour the rules disabled and the opt-in rules enabled in this workspace
                           file (.sargable.json)
  --no-statistics          with --dsn: do not sample live selectivity (COUNT(DISTINCT …) over at
                           most 10,000 rows per table, read-only, 2 s limit each)
  --verify                 with --dsn: prove each index suggestion with EXPLAIN before/after (what-if)
  --verify-threshold F     share of estimated rows examined that must be saved to call it improved
                           (0..1, default 0.5, like Dexter)
  --allow-what-if          consent for --verify to build each index (INVISIBLE on MySQL 8, plain on a
                           sandbox server) and drop it again; never use it on a production server
  --stream                 read FILE as a stream, statement by statement, even when it is small
                           (standard input and files over 64 MB always are)
  --progress               progress lines on standard error for a streamed FILE even when it is
                           not a terminal
  -h, --help               show this help

Reads SQL from FILE, or standard input with - (or when no FILE is given).
Exit codes: 0 ran, 1 a finding reached --fail-on, 2 usage or input error.
Passwords: --password-file FILE, --ask-password, --login-path NAME or SARGABLE_PASSWORD (sargable --help).`;

export const run: CliCommand = async (argv, io) => {
  const args = parseCommonArgs(
    argv,
    {
      schema: { type: 'string', multiple: true },
      dsn: { type: 'string' },
      flavor: { type: 'string' },
      'server-version': { type: 'string' },
      'fail-on': { type: 'string' },
      verify: { type: 'boolean' },
      'sql-mode': { type: 'string' },
      'allow-what-if': { type: 'boolean' },
      'verify-threshold': { type: 'string' },
      disable: { type: 'string', multiple: true },
      enable: { type: 'string', multiple: true },
      workspace: { type: 'string' },
      'no-statistics': { type: 'boolean' },
      stream: { type: 'boolean' },
      progress: { type: 'boolean' },
    },
    { io, usage },
  );
  if (!args) return 0;
  const { values, positionals, format } = args;
  const failOn = values['fail-on'];
  if (failOn !== undefined && !(severities as readonly string[]).includes(failOn)) {
    throw new UsageError(`--fail-on must be one of ${severities.join(', ')}`);
  }
  if (positionals.length > 1) throw new UsageError('Give one FILE (or - for standard input).');
  if (values.dsn && (values.flavor || values['server-version'])) {
    throw new UsageError('--dsn reads flavor and version from the server: drop --flavor/--server-version.');
  }

  if (values.verify && !values.dsn)
    throw new UsageError('--verify needs --dsn: verification runs EXPLAIN on the server.');
  if (values.verify && !values['allow-what-if']) {
    throw new UsageError(
      '--verify builds each suggested index on the server (INVISIBLE on MySQL 8, a real index elsewhere) and drops it again. That takes time, I/O and metadata locks, so it needs explicit consent: add --allow-what-if, on a server where that is acceptable.',
    );
  }
  const threshold = values['verify-threshold'] === undefined ? 0.5 : Number(values['verify-threshold']);
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
    throw new UsageError('--verify-threshold must be a number from 0 to 1, e.g. 0.5');
  }
  const saved = values.workspace ? await workspaceRules(values.workspace, io) : undefined;
  const disabledRules = disabledRulesFrom(values.disable, saved);
  const enabledRules = enabledRulesFrom(values.enable, disabledRules, saved, io);
  const input = positionals[0];
  const fromStdin = input === undefined || input === '-';
  const name = fromStdin ? '<stdin>' : input;
  if (fromStdin && values.schema?.includes('-'))
    throw new UsageError(
      'Standard input can feed --schema - or the SQL, not both: give the SQL as FILE (or the schema as a file).',
    );
  // Standard input and a large file are read as a stream, statement by statement (docs/cli.md,
  // "Large files"): the output is the same as the whole-text path's.
  const size = fromStdin ? undefined : await fileSize(input, io);
  const streamed =
    fromStdin || (size !== undefined && (values.stream === true || size > STREAM_THRESHOLD_BYTES));
  const stream = async (analysis: StreamAnalysis) => {
    const worst = await analyzeStream(
      fromStdin ? stdinChunks(io) : fileChunks(input, io),
      size,
      analysis,
      io,
      {
        format,
        name,
        what: fromStdin ? 'standard input' : `SQL file ${input}`,
        // Standard input: progress lines only when asked (a small piped script prints none).
        progress:
          process.stderr.isTTY === true && !fromStdin
            ? (line, last) => io.stderr(`\r\x1b[K${line}${last ? '\n' : ''}`)
            : values.progress
              ? (line) => io.stderr(`${line}\n`)
              : undefined,
      },
    );
    return failOn && worst && severities.indexOf(worst) >= severities.indexOf(failOn as Severity) ? 1 : 0;
  };
  const extra = { disabledRules, enabledRules, statistics: values['no-statistics'] !== true };
  if (values.dsn) {
    const live = { schemaFiles: values.schema, sqlMode: values['sql-mode'], ...extra };
    const dsn = dsnWithPassword(values.dsn, io);
    const verify = values.verify === true ? { threshold } : null;
    // --verify builds an index per suggestion over the whole report: the input is read whole.
    if (streamed && !verify) {
      const { code } = await withLiveAnalysis(dsn, io, null, live, async (analysis) => ({
        code: await stream(analysis),
      }));
      return code ?? 0;
    }
    const sql = await readInput(input, io);
    const { report } = await withLiveAnalysis(dsn, io, verify, live, undefined, sql);
    return printReport(report!, format, name, failOn, io);
  }
  const target = offlineTarget(values.flavor, values['server-version']);
  const loaded = await loadSchemaSources(values.schema, io, target.flavor, target.version);
  const sqlMode =
    values['sql-mode'] === undefined
      ? undefined
      : checkSqlMode(values['sql-mode'], target.flavor, target.version);
  const targetSource = values.flavor || values['server-version'] ? 'flags' : 'default';
  const options = { ...(sqlMode === undefined ? {} : { sqlMode }), disabledRules, enabledRules };
  if (streamed) return stream(offlineStatementAnalysis(target, targetSource, loaded, options));
  const sql = await readInput(input, io);
  return printReport(
    runOfflineAnalysis(sql, target, targetSource, loaded, options),
    format,
    name,
    failOn,
    io,
  );
};

function printReport(
  report: AnalysisReport,
  format: string,
  name: string,
  failOn: string | undefined,
  io: CliIo,
): number {
  io.stdout(format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : formatReportText(report, name));
  return failOn && reachesSeverity(report, failOn as Severity) ? 1 : 0;
}

/**
 * Open the DSN's server and analyse against it: with `--schema`, the schema files (the server gives
 * flavor and version); otherwise the live schema. `streamed` gets the statement-by-statement analysis
 * (the live post-pass per batch); else the whole `sql` is analysed (and verified with --verify).
 */
async function withLiveAnalysis(
  dsn: string,
  io: CliIo,
  verify: { threshold: number } | null,
  live: {
    schemaFiles: string[] | undefined;
    sqlMode: string | undefined;
    disabledRules: string[];
    enabledRules: string[];
    statistics: boolean;
  },
  streamed?: (analysis: StreamAnalysis) => Promise<{ code: number }>,
  sql = '',
): Promise<{ code?: number; report?: AnalysisReport }> {
  const connections = cliConnections();
  const opened = await connections.openConnection({ dsn, allowWhatIf: verify !== null });
  printNotices(opened, io.stderr);
  try {
    const { connection, server, target } = connections.get(opened.connectionId);
    const options = {
      disabledRules: live.disabledRules,
      enabledRules: live.enabledRules,
      ...(live.sqlMode === undefined
        ? {}
        : { sqlMode: checkSqlMode(live.sqlMode, server.flavor, server.version) }),
    };
    const offline = { flavor: server.flavor, version: server.version };
    if (live.schemaFiles?.length) {
      const loaded = await loadSchemaSources(live.schemaFiles, io, server.flavor, server.version);
      if (streamed) return await streamed(offlineStatementAnalysis(offline, 'dsn', loaded, options));
      const report = runOfflineAnalysis(sql, offline, 'dsn', loaded, options);
      if (verify) await verifySuggestions(report, target, server, io, verify.threshold);
      return { report };
    }
    const schema = server.database
      ? await loadSchema(connection, server, server.database)
      : { source: 'none' as const, tables: [] };
    if (!server.database)
      io.stderr('note: the DSN names no database, so column types are unknown; add /DATABASE to the DSN.\n');
    const liveOptions = { ...options, ...(live.statistics ? {} : { sample: false as const }) };
    if (streamed) return await streamed(liveStatementAnalysis(connection, server, schema, liveOptions));
    const report = await runLiveAnalysis(connection, sql, server, schema, liveOptions);
    if (verify) await verifySuggestions(report, target, server, io, verify.threshold);
    return { report };
  } finally {
    await connections.closeAll();
  }
}

/** The rule choices saved in a workspace file (the app's "Disable rule" and "Opt-in rules"). */
interface SavedRules {
  disabledRules: readonly string[];
  enabledRules: readonly string[];
}

async function workspaceRules(file: string, io: CliIo): Promise<SavedRules> {
  const parsed = parseWorkspace(await readText(file, io, 'workspace file'));
  if (!parsed.ok) throw new UsageError(parsed.problem.message);
  return {
    disabledRules: parsed.workspace.disabledRules ?? [],
    enabledRules: parsed.workspace.enabledRules ?? [],
  };
}

/** Rule IDs from `--disable` (comma-separated, repeatable) and a workspace file's `disabledRules`. */
function disabledRulesFrom(flags: string[] | undefined, saved: SavedRules | undefined): string[] {
  const known = new Set(Object.values(registry).map((rule) => rule.meta.id));
  const ids = new Set<string>();
  for (const flag of flags ?? [])
    for (const part of flag.split(',')) {
      const id = part.trim().replace(/\./g, '').toUpperCase();
      if (!id) continue;
      if (!known.has(id))
        throw new UsageError(
          `--disable: unknown rule '${part.trim()}'; rules: ${[...known].sort().join(', ')}`,
        );
      ids.add(id);
    }
  for (const id of saved?.disabledRules ?? []) ids.add(id);
  return [...ids].sort();
}

/**
 * Opt-in rule IDs from `--enable` (comma-separated, repeatable: known, opt-in, and not also disabled)
 * and a workspace file's `enabledRules` (the app's opt-in choices). A disabled rule stays off, as in the
 * app; a saved ID that is not an opt-in rule of this version (renamed, now on by default) is skipped
 * with a note on standard error, since the file may come from another version.
 */
function enabledRulesFrom(
  flags: string[] | undefined,
  disabled: readonly string[],
  saved: SavedRules | undefined,
  io: CliIo,
): string[] {
  const optIn = Object.values(registry)
    .filter((rule) => rule.meta.optIn && !rule.meta.replacedBy)
    .map((rule) => rule.meta.id)
    .sort();
  const ids = new Set<string>();
  for (const flag of flags ?? [])
    for (const part of flag.split(',')) {
      const id = part.trim().replace(/\./g, '').toUpperCase();
      if (!id) continue;
      if (!registry[id])
        throw new UsageError(`--enable: unknown rule '${part.trim()}'; opt-in rules: ${optIn.join(', ')}`);
      if (!optIn.includes(id))
        throw new UsageError(
          `--enable: ${id} is not an opt-in rule, it runs by default; opt-in rules: ${optIn.join(', ')}`,
        );
      if (disabled.includes(id))
        throw new UsageError(`--enable: ${id} is also disabled (--disable or the workspace file)`);
      ids.add(id);
    }
  for (const id of saved?.enabledRules ?? []) {
    if (disabled.includes(id)) continue;
    if (!optIn.includes(id)) {
      io.stderr(
        `note: the workspace file enables ${id}, which is not an opt-in rule of this version (${registry[id] ? 'it runs by default' : 'unknown'}): ignored.\n`,
      );
      continue;
    }
    ids.add(id);
  }
  return [...ids].sort();
}

/** Size of FILE, or undefined when it is not a regular file (readInput then gives the error). */
async function fileSize(file: string, io: CliIo): Promise<number | undefined> {
  const info = await stat(path.resolve(io.cwd, file)).catch(() => undefined);
  return info?.isFile() ? info.size : undefined;
}

/** FILE's bytes as a stream (1 MiB reads). */
function fileChunks(file: string, io: CliIo): AsyncIterable<Uint8Array> {
  return createReadStream(path.resolve(io.cwd, file), { highWaterMark: 1024 * 1024 });
}

const INDEX_KINDS = new Set(['functional-index', 'generated-column', 'index']);

/** Attach `verification` (a workspace VerificationRecord: plan lines before/after) to each index suggestion. */
async function verifySuggestions(
  report: AnalysisReport,
  target: ConnectionTarget,
  server: ServerInfo,
  io: CliIo,
  threshold: number,
): Promise<void> {
  const database = server.database;
  if (!database) throw new UsageError('--verify needs a database in the DSN (mysql://…/DATABASE).');
  for (const statement of report.statements) {
    for (const finding of statement.findings) {
      if (!finding.table) continue;
      for (const suggestion of finding.suggestions) {
        if (!INDEX_KINDS.has(suggestion.kind) || suggestion.ddl.length === 0) continue;
        try {
          const result = await verifyWhatIf(target, server, {
            ddl: suggestion.ddl.map(whatIfDdl),
            table: finding.table,
            database,
            beforeSql: statement.sql,
            afterSql: servedSql(finding, suggestion) ?? statement.sql,
            allowWhatIf: true,
            threshold,
          });
          // The workspace's record shape, so `analyze --verify | export --from-analysis -` keeps it.
          suggestion.verification = result.record;
        } catch (error) {
          const message = error instanceof AdvisorError ? error.userMessage : String(error);
          suggestion.verification = { error: message };
          io.stderr(
            `verification of ${suggestion.indexName ?? suggestion.kind} on ${finding.table} failed: ${message}\n`,
          );
        }
      }
    }
  }
}
