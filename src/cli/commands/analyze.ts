// `sargable analyze`: find non-sargable predicates in SQL files, offline or against a live server.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { reachesSeverity, severities, type AnalysisReport, type Severity } from '../../core/model/report.js';
import { AdvisorError } from '../../shared/errors.js';
import { ConnectionService } from '../../main/services/connection.js';
import { loadSchema } from '../../main/services/schema.js';
import { offlineTarget, runAnalysis, runOfflineAnalysis } from '../../main/services/analysis.js';
import { parseCommandArgs } from '../args.js';
import { UsageError, type CliCommand, type CliIo } from '../io.js';
import { formatReportText } from '../format.js';

export const usage = `Usage: sargable analyze [options] [FILE|-]

Find predicates no index can serve (functions or arithmetic on columns, …) and propose fixes.

Options:
  --schema FILE            CREATE TABLE statements for offline analysis (repeatable)
  --dsn URL                analyze against a live server: mysql://user:pass@host:3306/db
  --flavor mysql|mariadb   offline target flavor (default mysql)
  --server-version X.Y.Z   offline target version (default 8.0.33, MariaDB 10.11.0)
  --format text|json       output format (default text)
  --fail-on SEVERITY       exit 1 when a finding reaches info|warning|error (default: never)
  -h, --help               show this help

Reads SQL from FILE, or standard input with - (or when no FILE is given).
Exit codes: 0 ran, 1 a finding reached --fail-on, 2 usage or input error.
The password in --dsn can also come from the environment variable SARGABLE_PASSWORD.`;

export const run: CliCommand = async (argv, io) => {
  const { values, positionals } = parseCommandArgs(argv, {
    schema: { type: 'string', multiple: true },
    dsn: { type: 'string' },
    flavor: { type: 'string' },
    'server-version': { type: 'string' },
    format: { type: 'string', default: 'text' },
    'fail-on': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout(`${usage}\n`);
    return 0;
  }
  const format = values.format;
  if (format !== 'text' && format !== 'json')
    throw new UsageError(`--format must be text or json, not '${format}'`);
  const failOn = values['fail-on'];
  if (failOn !== undefined && !(severities as readonly string[]).includes(failOn)) {
    throw new UsageError(`--fail-on must be one of ${severities.join(', ')}`);
  }
  if (positionals.length > 1) throw new UsageError('Give one FILE (or - for standard input).');
  if (values.dsn && (values.flavor || values['server-version'])) {
    throw new UsageError('--dsn reads flavor and version from the server: drop --flavor/--server-version.');
  }

  const input = positionals[0];
  const sql = await readInput(input, io);
  let report: AnalysisReport;
  if (values.dsn) {
    report = await analyzeLive(sql, withPassword(values.dsn, io.env.SARGABLE_PASSWORD), values.schema, io);
  } else {
    const target = offlineTarget(values.flavor, values['server-version']);
    const ddl = await readSchemas(values.schema, io);
    report = runOfflineAnalysis(
      sql,
      target,
      values.flavor || values['server-version'] ? 'flags' : 'default',
      ddl,
    );
  }
  io.stdout(
    format === 'json'
      ? `${JSON.stringify(report, null, 2)}\n`
      : formatReportText(report, input && input !== '-' ? input : '<stdin>'),
  );
  if (failOn && reachesSeverity(report, failOn as Severity)) return 1;
  return 0;
};

async function analyzeLive(
  sql: string,
  dsn: string,
  schemaFiles: string[] | undefined,
  io: CliIo,
): Promise<AnalysisReport> {
  const connections = new ConnectionService();
  const opened = await connections.openConnection({ dsn });
  try {
    const { connection, server } = connections.get(opened.connectionId);
    if (schemaFiles?.length) {
      const ddl = await readSchemas(schemaFiles, io);
      return runOfflineAnalysis(sql, { flavor: server.flavor, version: server.version }, 'dsn', ddl);
    }
    const schema = server.database
      ? await loadSchema(connection, server, server.database)
      : { source: 'none' as const, tables: [] };
    if (!server.database)
      io.stderr('note: the DSN names no database, so column types are unknown; add /DATABASE to the DSN.\n');
    return runAnalysis(sql, server, 'dsn', schema);
  } finally {
    await connections.closeAll();
  }
}

function withPassword(dsn: string, password: string | undefined): string {
  if (!password) return dsn;
  try {
    const url = new URL(dsn);
    if (!url.password) url.password = encodeURIComponent(password);
    return url.toString();
  } catch {
    return dsn;
  }
}

async function readInput(file: string | undefined, io: CliIo): Promise<string> {
  if (file === undefined || file === '-') return io.readStdin();
  return readText(file, io, 'SQL file');
}

async function readSchemas(files: string[] | undefined, io: CliIo): Promise<string | undefined> {
  if (!files?.length) return undefined;
  const texts = await Promise.all(files.map((file) => readText(file, io, 'schema file')));
  return texts.join(';\n');
}

async function readText(file: string, io: CliIo, what: string): Promise<string> {
  try {
    return await readFile(path.resolve(io.cwd, file), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new AdvisorError(
      'INVALID_INPUT',
      code === 'ENOENT' ? `${what} not found: ${file}` : `Cannot read ${what} ${file}: ${String(error)}`,
    );
  }
}
