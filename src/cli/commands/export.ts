// `sargable export`: turn a workspace (or `analyze --format json` output) into one reviewed DDL script with rollback.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { exportVariants, exportWorkspace, type ExportVariant } from '../../core/export/index.js';
import type { AnalysisReport } from '../../core/model/report.js';
import {
  emptyWorkspace,
  fromAnalysis,
  type AnalysisPick,
  type Workspace,
} from '../../core/workspace/model.js';
import { offlineTarget } from '../../main/services/analysis.js';
import { loadWorkspace } from '../../main/services/workspace-store.js';
import { APP_VERSION } from '../../main/version.js';
import { AdvisorError } from '../../shared/errors.js';
import { parseCommandArgs } from '../args.js';
import { UsageError, type CliCommand, type CliIo } from '../io.js';
import { loadSchemaSources } from '../input.js';

export const usage = `Usage: sargable export (--workspace FILE | --from-analysis FILE|-) [options]

Write one DDL script for the accepted suggestions: per table one combined ALTER TABLE with the
ALGORITHM=/LOCK= the target server accepts, a lock_wait_timeout prelude, and comments saying which
queries each change serves. --rollback writes the matching rollback script.

Options:
  --workspace FILE          a .sargable.json workspace (its accepted suggestions)
  --from-analysis FILE|-    an AnalysisReport (sargable analyze --format json); accepts per finding
                            the first suggestion with DDL (see --kind)
  --kind KIND               with --from-analysis: index-first (default), functional-index,
                            generated-column or index
  --flavor mysql|mariadb|percona   target flavor (default: the workspace's or report's, else mysql)
  --server-version X.Y.Z    target version (default: the workspace's or report's)
  --variant sql|pt-osc|gh-ost      plain script for the mysql client (default), or a bash script
                            that dry-runs pt-online-schema-change / gh-ost per table (--execute to apply)
  --rollback                write the rollback script instead
  --idempotent              add IF NOT EXISTS / IF EXISTS guards where the server has them (MariaDB)
  --split-online            add new VIRTUAL columns first (INSTANT), then index them with LOCK=NONE
  --schema FILE|DIR|-       current CREATE TABLE statements (a dump or DDL file, a directory of *.sql
                            files, or - for standard input; repeatable, read as a stream): suggestions
                            that no longer apply are set aside
  --database NAME           database for the header, USE hint and pt-osc/gh-ost scripts
  --lock-wait-timeout N     seconds for SET SESSION lock_wait_timeout (default 10)
  -h, --help                show this help

Exit codes: 0 written, 2 usage or input error.`;

export const run: CliCommand = async (argv, io) => {
  const { values } = parseCommandArgs(argv, {
    workspace: { type: 'string' },
    'from-analysis': { type: 'string' },
    kind: { type: 'string', default: 'index-first' },
    flavor: { type: 'string' },
    'server-version': { type: 'string' },
    variant: { type: 'string', default: 'sql' },
    rollback: { type: 'boolean' },
    idempotent: { type: 'boolean' },
    'split-online': { type: 'boolean' },
    schema: { type: 'string', multiple: true },
    database: { type: 'string' },
    'lock-wait-timeout': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout(`${usage}\n`);
    return 0;
  }
  if (Boolean(values.workspace) === Boolean(values['from-analysis']))
    throw new UsageError('Give exactly one of --workspace FILE or --from-analysis FILE|-.');
  if (values['from-analysis'] === '-' && values.schema?.includes('-'))
    throw new UsageError(
      'Standard input can feed --from-analysis - or --schema -, not both: give one of them as a file.',
    );
  const variant = values.variant as ExportVariant;
  if (!exportVariants.includes(variant))
    throw new UsageError(`--variant must be one of ${exportVariants.join(', ')}, not '${values.variant}'`);
  const picks = ['index-first', 'functional-index', 'generated-column', 'index'];
  if (!picks.includes(values.kind)) throw new UsageError(`--kind must be one of ${picks.join(', ')}`);
  const timeout = values['lock-wait-timeout'] === undefined ? 10 : Number(values['lock-wait-timeout']);
  if (!Number.isInteger(timeout) || timeout < 1)
    throw new UsageError('--lock-wait-timeout must be a whole number of seconds ≥ 1');

  const now = new Date().toISOString();
  let workspace: Workspace;
  let reportTarget: { flavor?: string; version?: string } = {};
  if (values.workspace) {
    workspace = (await loadWorkspace(path.resolve(io.cwd, values.workspace))).workspace;
  } else {
    const report = parseReport(await readInput(values['from-analysis']!, io));
    reportTarget = { flavor: report.server.flavor, version: report.server.version };
    workspace = emptyWorkspace({ id: 'analysis' }, now);
    const { findingsWithoutDdl } = fromAnalysis(workspace, report, now, values.kind as AnalysisPick);
    if (findingsWithoutDdl > 0)
      io.stderr(
        `note: ${findingsWithoutDdl} finding(s) have no ${values.kind === 'index-first' ? 'DDL' : values.kind} suggestion.\n`,
      );
  }
  const target = offlineTarget(
    values.flavor ?? workspace.profile.flavor ?? reportTarget.flavor,
    values['server-version'] ??
      (values.flavor ? undefined : (workspace.profile.serverVersion ?? reportTarget.version)),
  );
  const schema = (await loadSchemaSources(values.schema, io, target.flavor, target.version))?.schema ?? null;
  const { plan, script } = exportWorkspace(workspace, {
    flavor: target.flavor,
    version: target.version,
    variant,
    rollback: Boolean(values.rollback),
    idempotent: Boolean(values.idempotent),
    splitOnline: Boolean(values['split-online']),
    database: values.database ?? workspace.profile.database ?? null,
    ...(workspace.profile.name ? { serverLabel: workspace.profile.name } : {}),
    generatedAt: now,
    sargableVersion: APP_VERSION,
    lockWaitTimeout: timeout,
    schema,
  });
  io.stdout(script.text);
  for (const { item, reason } of plan.skipped) io.stderr(`note: not exported (${item.table}): ${reason}\n`);
  for (const warning of script.warnings) io.stderr(`warning: ${warning}\n`);
  return 0;
};

function parseReport(text: string): AnalysisReport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new AdvisorError(
      'INVALID_INPUT',
      'The analysis input is not JSON: pipe `sargable analyze --format json` into `sargable export --from-analysis -`.',
    );
  }
  const report = data as Partial<AnalysisReport>;
  if (!report || !Array.isArray(report.statements) || typeof report.server?.flavor !== 'string')
    throw new AdvisorError(
      'INVALID_INPUT',
      'The analysis input is not an AnalysisReport (no server/statements): use the output of `sargable analyze --format json`.',
    );
  return report as AnalysisReport;
}

async function readInput(file: string, io: CliIo): Promise<string> {
  return file === '-' ? io.readStdin() : readText(path.resolve(io.cwd, file));
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new AdvisorError(
      'NOT_FOUND',
      `Cannot read ${file}: ${(error as Error).message}`,
      {},
      { cause: error },
    );
  }
}
