// `sargable indexes`: one index set for a workload (a query file, slow logs, or live digests).

import path from 'node:path';
import type { RowDataPacket } from 'mysql2/promise';
import {
  whatIfDdl,
  designWorkloadIndexes,
  workloadFromText,
  type WorkloadPlan,
  type WorkloadStatement,
} from '../../core/indexing/index.js';
import type { SchemaModel } from '../../core/model/schema.js';
import type { ServerInfo } from '../../core/model/server-info.js';
import { offlineServerInfo } from '../../core/sqlmode/modes.js';
import { binaryToDisplay } from '../../core/slowlog/index.js';
import { ConnectionService, type ConnectionTarget } from '../../main/services/connection.js';
import { verifyWhatIf } from '../../main/services/what-if.js';
import { AdvisorError } from '../../shared/errors.js';
import { offlineSchema, offlineTarget } from '../../main/services/analysis.js';
import { tableDistinctCounts } from '../../main/services/column-statistics.js';
import { unusedIndexes } from '../../main/services/index-usage.js';
import { loadSchema } from '../../main/services/schema.js';
import { neededIndexes, type UnusedIndexReport } from '../../core/indexing/unused.js';
import { digestSlowLogFiles } from '../../main/services/slowlog-file.js';
import { parseCommandArgs } from '../args.js';
import { dsnWithPassword, inputStatements, loadSchemaSources } from '../input.js';
import { UsageError, type CliCommand, type CliIo } from '../io.js';

export const usage = `Usage: sargable indexes [options] [FILE|-]

Design one index set for a whole workload: candidates from every statement, merged by prefix,
chosen greedily by benefit per byte, weighed against the write traffic on each table.

Input (one of):
  FILE | -                 statements separated by ';'; a '-- weight: N' comment before a statement
                           gives its weight (frequency x cost; default 1)
  --slow-log FILE          a slow query log (repeatable): one statement per class (its example),
                           weighted by the class's total Query_time
  --digests                with --dsn: the server's performance_schema statement digests of the
                           DSN's database, weighted by their total latency (MySQL: sample texts)

Options:
  --schema FILE|DIR|-      CREATE TABLE statements: a dump or DDL file, a directory of *.sql files, or
                           - for standard input (repeatable, applied in order; read as a stream, so a
                           dump with data of any size loads; default with --dsn: the live schema)
  --dsn URL                read flavor, version and schema from a server: mysql://user@host/db
  --flavor mysql|mariadb   offline target flavor (default mysql)
  --server-version X.Y.Z   offline target version (default 8.0.33, MariaDB 10.11.0)
  --max-indexes N          at most N new or extended indexes
  --max-key-bytes N        at most N key bytes over all chosen indexes
  --write-factor F         share of a table's write weight each index on it costs (default 0.1)
  --verify                 with --dsn: build each index as a what-if (INVISIBLE on MySQL 8, a real
                           index on a sandbox elsewhere), EXPLAIN the heaviest statement it serves
                           before/after, drop it again; an index the optimizer does not use is marked
                           "rejected"
  --allow-what-if          consent for --verify to build and drop indexes; never on a production server
  --format text|json       output format (default text)
  -h, --help               show this help

Every index is a runnable ALTER TABLE statement in the output (docs/cli.md).
Passwords: --password-file FILE, --ask-password, --login-path NAME or SARGABLE_PASSWORD (sargable --help).`;

export const run: CliCommand = async (argv, io) => {
  const { values, positionals } = parseCommandArgs(argv, {
    schema: { type: 'string', multiple: true },
    dsn: { type: 'string' },
    flavor: { type: 'string' },
    'server-version': { type: 'string' },
    'slow-log': { type: 'string', multiple: true },
    digests: { type: 'boolean' },
    'max-indexes': { type: 'string' },
    'max-key-bytes': { type: 'string' },
    'write-factor': { type: 'string' },
    verify: { type: 'boolean' },
    'allow-what-if': { type: 'boolean' },
    format: { type: 'string', default: 'text' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout(`${usage}\n`);
    return 0;
  }
  const format = values.format;
  if (format !== 'text' && format !== 'json')
    throw new UsageError(`--format must be text or json, not '${format}'`);
  if (values.dsn && (values.flavor || values['server-version']))
    throw new UsageError('--dsn reads flavor and version from the server: drop --flavor/--server-version.');
  if (values.digests && !values.dsn) throw new UsageError("--digests reads the server's digests: add --dsn.");
  const sources = [
    positionals.length > 0,
    Boolean(values['slow-log']?.length),
    Boolean(values.digests),
  ].filter(Boolean).length;
  if (sources > 1) throw new UsageError('Give one input: a query FILE, --slow-log FILE, or --digests.');
  if (positionals.length > 1) throw new UsageError('Give one query FILE (or - for standard input).');
  // The query file defaults to standard input when no other workload is given.
  const queriesOnStdin = sources === 0 || positionals[0] === '-';
  if (queriesOnStdin && values.schema?.includes('-'))
    throw new UsageError(
      'Standard input can feed --schema - or the statements, not both: give the query FILE (or the schema as a file).',
    );
  if (values.verify && !values.dsn)
    throw new UsageError('--verify needs --dsn: it runs EXPLAIN on the server.');
  if (values.verify && !values['allow-what-if'])
    throw new UsageError(
      '--verify builds each index on the server (INVISIBLE on MySQL 8, a real index elsewhere) and drops it again. That takes time, I/O and metadata locks: add --allow-what-if, on a server where that is acceptable.',
    );
  const options = {
    ...positiveNumber(values['max-indexes'], '--max-indexes', true, 'maxIndexes'),
    ...positiveNumber(values['max-key-bytes'], '--max-key-bytes', true, 'maxKeyBytes'),
    ...positiveNumber(values['write-factor'], '--write-factor', false, 'writeFactor'),
  };

  let statements: WorkloadStatement[] | undefined;
  if (values['slow-log']?.length) statements = await fromSlowLogs(values['slow-log'], io);
  else if (!values.digests) statements = await fromQueryFile(positionals[0], io);

  let plan: WorkloadPlan;
  let unused: UnusedIndexReport | undefined;
  if (values.dsn) {
    const connections = new ConnectionService();
    const opened = await connections.openConnection({
      dsn: dsnWithPassword(values.dsn, io),
      allowWhatIf: values.verify === true,
    });
    try {
      const { connection, server, target } = connections.get(opened.connectionId);
      if (!server.database && !values.schema?.length)
        throw new UsageError('Name the database in the DSN (mysql://…/DATABASE) or give --schema files.');
      const schema: SchemaModel = values.schema?.length
        ? ((await loadSchemaSources(values.schema, io, server.flavor, server.version))?.schema ??
          offlineSchema(undefined, server.flavor))
        : baseTablesOnly(await loadSchema(connection, server, server.database ?? ''));
      const workload =
        statements ??
        (await (async () => {
          const [rows] = await connection.query<RowDataPacket[]>(digestQuery(server), [server.database]);
          return rows
            .map((row) => ({
              sql: String(row.text ?? ''),
              weight: Number(row.seconds) || 0,
              label: String(row.digest ?? ''),
            }))
            .filter((row) => row.sql && !/\.\.\.|^\s*(SHOW|SET|USE|EXPLAIN)\b/i.test(row.sql));
        })());
      plan = designWorkloadIndexes(workload, schema, server, options);
      // Equality columns ordered by selectivity where the server's statistics know it (as the app does).
      const distinct = await tableDistinctCounts(
        connection,
        server,
        server.database ?? '',
        schema,
        plan.tables.map((table) => table.table),
      );
      if (distinct.size > 0)
        plan = designWorkloadIndexes(workload, schema, server, {
          ...options,
          distinct: (table, column) => distinct.get(`${table.toLowerCase()}.${column.toLowerCase()}`),
        });
      if (server.database)
        unused = await unusedIndexes(
          connection,
          server,
          server.database,
          schema,
          plan.tables.map((table) => table.table),
          neededIndexes(plan),
        );
      if (values.verify) await verifyIndexes(plan, target, server, io);
    } finally {
      await connections.closeAll();
    }
  } else {
    const target = offlineTarget(values.flavor, values['server-version']);
    const server: ServerInfo = offlineServerInfo(target.flavor, target.version);
    const loaded = await loadSchemaSources(values.schema, io, target.flavor, target.version);
    if (!loaded)
      throw new UsageError('Give the schema: --schema FILE with CREATE TABLE statements, or --dsn.');
    plan = designWorkloadIndexes(statements ?? [], loaded.schema, server, options);
  }
  io.stdout(
    format === 'json'
      ? `${JSON.stringify(unused ? { ...plan, unused } : plan, null, 2)}\n`
      : formatText(plan, unused),
  );
  return 0;
};

/** What-if for each chosen index: the heaviest statement it serves, EXPLAINed before and after. */
async function verifyIndexes(
  plan: WorkloadPlan,
  target: ConnectionTarget,
  server: ServerInfo,
  io: CliIo,
): Promise<void> {
  const database = server.database;
  if (!database) throw new UsageError('--verify needs a database in the DSN (mysql://…/DATABASE).');
  for (const index of plan.indexes) {
    const statement = index.serves.map((n) => plan.queries[n]!).sort((a, b) => b.weight - a.weight)[0];
    if (!statement) continue;
    try {
      const result = await verifyWhatIf(target, server, {
        ddl: index.ddl.map(whatIfDdl),
        table: index.table,
        database,
        beforeSql: statement.sql,
        // Keyed on generated columns the server does not substitute: the statement as it must run.
        afterSql:
          statement.queryMustChange && statement.rewrittenSql ? statement.rewrittenSql : statement.sql,
        allowWhatIf: true,
      });
      index.verification = {
        statement: statement.index,
        method: result.method,
        verdict: result.verdict,
        keyBefore: result.before.key,
        keyAfter: result.after.key,
        rowsBefore: result.before.rowsExamined,
        rowsAfter: result.after.rowsExamined,
        usesIndex: result.record.usesIndex,
      };
      if (!result.record.usesIndex)
        index.rejected = `The optimizer does not use it for statement #${statement.index + 1} (plan after: ${result.after.key ?? 'no index'}, ${result.after.accessType ?? '?'}).`;
    } catch (error) {
      const message = error instanceof AdvisorError ? error.userMessage : String(error);
      index.verification = { statement: statement.index, error: message };
      io.stderr(`verification of ${index.table}.${index.name} failed: ${message}\n`);
    }
  }
}

function positiveNumber<K extends string>(
  value: string | undefined,
  flag: string,
  integer: boolean,
  key: K,
): Partial<Record<K, number>> {
  if (value === undefined) return {};
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0 || (integer && (!Number.isInteger(number) || number < 1)))
    throw new UsageError(`${flag} must be a ${integer ? 'positive integer' : 'number ≥ 0'}, not '${value}'`);
  return { [key]: number } as Partial<Record<K, number>>;
}

/**
 * The query file's statements, read as a stream (no size limit, no second copy of the text): each
 * statement as workloadFromText reads it — its `-- weight: N` comment, `line N` as its label. The
 * workload keeps every statement's text (the design weighs them all at once).
 */
async function fromQueryFile(file: string | undefined, io: CliIo): Promise<WorkloadStatement[]> {
  const statements: WorkloadStatement[] = [];
  for await (const slice of inputStatements(file, io, 'query file')) {
    const weight = workloadFromText(slice.sql)[0]?.weight;
    statements.push({
      sql: slice.sql,
      ...(weight !== undefined ? { weight } : {}),
      label: `line ${slice.line}`,
    });
  }
  return statements;
}

async function fromSlowLogs(files: string[], io: CliIo): Promise<WorkloadStatement[]> {
  const result = await digestSlowLogFiles(
    files.map((file) => path.resolve(io.cwd, file)),
    { worker: false },
  );
  return result.classes
    .filter((item) => item.example.sql)
    .map((item) => ({
      sql: binaryToDisplay(item.example.sql),
      weight: item.queryTime?.sum ?? item.queryCount,
      label: item.checksum,
    }));
}

/** Digests of one schema, heaviest first: MySQL's sample text (a real statement) or the digest text. */
function digestQuery(server: ServerInfo): string {
  const text = server.capabilities.digestQuerySample
    ? 'COALESCE(QUERY_SAMPLE_TEXT, DIGEST_TEXT)'
    : 'DIGEST_TEXT';
  return `SELECT /* sargable indexes */ DIGEST AS digest, ${text} AS text, SUM_TIMER_WAIT / 1e12 AS seconds
    FROM performance_schema.events_statements_summary_by_digest
   WHERE SCHEMA_NAME = ? ORDER BY SUM_TIMER_WAIT DESC LIMIT 1000`;
}

function formatText(plan: WorkloadPlan, unused?: UnusedIndexReport): string {
  const lines: string[] = [];
  lines.push(
    `${plan.indexes.length} index${plan.indexes.length === 1 ? '' : 'es'} for ${plan.queries.length} statements`,
  );
  for (const index of plan.indexes) {
    lines.push('');
    lines.push(
      `${index.verdict === 'extend' ? 'extend' : 'create'} ${index.table}.${index.name} (${index.parts.map((part) => part.column ?? `(${part.expression})`).join(', ')})  benefit ${index.readBenefit.toFixed(2)}, write cost ${index.writeCost.toFixed(2)}`,
    );
    lines.push(`  serves statements ${index.serves.map((n) => `#${n + 1}`).join(', ')}`);
    for (const statement of index.ddl) lines.push(`  ${statement}`);
    if (index.verification && !index.verification.error)
      lines.push(
        `  what-if (${index.verification.method}): ${index.verification.verdict}, key ${index.verification.keyBefore ?? 'none'} -> ${index.verification.keyAfter ?? 'none'}, rows ${index.verification.rowsBefore ?? '?'} -> ${index.verification.rowsAfter ?? '?'}`,
      );
    if (index.rejected) lines.push(`  rejected: ${index.rejected}`);
    for (const note of index.notes) lines.push(`  note: ${note}`);
  }
  lines.push('');
  for (const query of plan.queries) {
    const uses = query.error
      ? `not designed: ${query.error}`
      : query.tables.length === 0
        ? 'no table to index'
        : query.tables
            .map(
              (table) =>
                `${table.table}: ${table.uses ?? `no index${table.reason ? ` (${table.reason})` : ''}`}${table.via === 'existing' ? ' (existing)' : ''}`,
            )
            .join('; ');
    lines.push(`#${query.index + 1} weight ${query.weight}: ${uses}`);
  }
  for (const note of plan.notes) lines.push(`note: ${note}`);
  for (const entry of plan.redundant) {
    lines.push(`redundant ${entry.table}.${entry.index} (${entry.kind}, served by ${entry.coveredBy})`);
    for (const statement of entry.ddl) lines.push(`  ${statement}`);
  }
  if (unused?.status === 'unknown') lines.push(`unused indexes: ${unused.reason ?? 'cannot tell'}`);
  for (const entry of unused?.indexes ?? []) {
    lines.push(`unused ${entry.table}.${entry.index} (${entry.columns.join(', ')})`);
    for (const statement of entry.ddl) lines.push(`  ${statement}`);
    for (const note of entry.notes.slice(1)) lines.push(`  note: ${note}`);
  }
  for (const caveat of unused?.status === 'measured' ? unused.caveats : []) lines.push(`caveat: ${caveat}`);
  return `${lines.join('\n')}\n`;
}

/** Views and sequences cannot be indexed: the live index set designs for base tables only. */
function baseTablesOnly(schema: SchemaModel): SchemaModel {
  return { ...schema, tables: schema.tables.filter((table) => !table.kind) };
}
