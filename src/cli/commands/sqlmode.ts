// `sargable sqlmode`: the server view of sql_mode (GLOBAL vs SESSION, defaults, lax-mode risks, variable defaults),
// or with FILE the upgrade view: which statements fail or change under a target server / sql_mode.

import { cliConnections, printNotices } from '../connections.js';
import { DEFAULT_TARGET } from '../../core/flavors/index.js';
import { validateSqlMode, validModes } from '../../core/sqlmode/modes.js';
import { upgradeAnalyzer, type SqlModeView, type UpgradeReport } from '../../core/sqlmode/views.js';
import { offlineSchema, offlineTarget } from '../../main/services/analysis.js';
import { readSqlModeView } from '../../main/services/sqlmode.js';
import { parseCommonArgs } from '../args.js';
import { dsnWithPassword, inputStatements, loadSchemaSources } from '../input.js';
import { UsageError, type CliCommand } from '../io.js';

export const usage = `Usage: sargable sqlmode --dsn URL [--format text|json]
       sargable sqlmode [--flavor F --server-version X.Y.Z] [--sql-mode MODES] [--schema FILE|DIR|-] FILE|-

Without FILE: connect and show GLOBAL and SESSION sql_mode side by side, the difference from the
server version's default, lax modes as risks, and variables whose defaults differ between servers.
With FILE: the upgrade view — run the sql-mode rules over the statements for a target server
(default MySQL ${DEFAULT_TARGET.version}) with its default sql_mode or --sql-mode, and count what fails or changes.

Options:
  --dsn URL                live server: mysql://user@host:3306/db
  --flavor mysql|mariadb   upgrade target flavor (default mysql)
  --server-version X.Y.Z   upgrade target version (default ${DEFAULT_TARGET.version}, MariaDB 10.11.0)
  --sql-mode MODES         upgrade target sql_mode (default: the target version's compiled default)
  --schema FILE|DIR|-      the schema for the upgrade view: a dump or DDL file, a directory of
                           *.sql files, or - for standard input (repeatable; read as a stream, so
                           a dump with data of any size loads)
  --format text|json       output format (default text)
  -h, --help               show this help

Exit codes: 0 ran, 1 (upgrade view) some statement would fail, 2 usage or input error.`;

export const run: CliCommand = async (argv, io) => {
  const args = parseCommonArgs(
    argv,
    {
      dsn: { type: 'string' },
      flavor: { type: 'string' },
      'server-version': { type: 'string' },
      'sql-mode': { type: 'string' },
      schema: { type: 'string', multiple: true },
    },
    { io, usage },
  );
  if (!args) return 0;
  const { values, positionals, format } = args;
  if (positionals.length > 1) throw new UsageError('Give one FILE (or - for standard input).');
  if (positionals.length === 0) {
    if (!values.dsn)
      throw new UsageError('Give --dsn URL for the server view, or a FILE for the upgrade view.');
    const connections = cliConnections();
    const opened = await connections.openConnection({
      dsn: dsnWithPassword(values.dsn, io),
    });
    printNotices(opened, io.stderr);
    try {
      const view = await readSqlModeView(connections.get(opened.connectionId).connection);
      io.stdout(format === 'json' ? `${JSON.stringify(view, null, 2)}\n` : formatView(view));
      return 0;
    } finally {
      await connections.closeAll();
    }
  }
  if (values.dsn)
    throw new UsageError(
      'The upgrade view is offline: drop --dsn and name the target with --flavor/--server-version.',
    );
  const target = offlineTarget(values.flavor, values['server-version']);
  const sqlMode =
    values['sql-mode'] === undefined
      ? undefined
      : checkSqlMode(values['sql-mode'], target.flavor, target.version);
  const input = positionals[0];
  if (input === '-' && values.schema?.includes('-'))
    throw new UsageError(
      'Standard input can feed --schema - or the SQL, not both: give the SQL as FILE (or the schema as a file).',
    );
  const loaded = await loadSchemaSources(values.schema, io, target.flavor, target.version);
  // Read as a stream, statement by statement (memory bounded by the longest statement and the report).
  const upgrade = upgradeAnalyzer(
    { ...target, ...(sqlMode !== undefined ? { sqlMode } : {}) },
    loaded?.schema ?? offlineSchema(undefined, target.flavor),
  );
  let index = 0;
  for await (const slice of inputStatements(input, io)) upgrade.add(slice, index++);
  const report = upgrade.result();
  io.stdout(format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : formatUpgrade(report));
  return report.failing > 0 ? 1 : 0;
};

/** Validate a --sql-mode value for a target; unknown names are a usage error listing the valid ones. */
export function checkSqlMode(
  value: string,
  flavor: 'mysql' | 'mariadb' | 'percona',
  version: string,
): string {
  const validation = validateSqlMode(value, flavor, version);
  const bad = [...validation.unknown, ...validation.removed];
  if (bad.length > 0) {
    throw new UsageError(
      `--sql-mode: ${bad.join(', ')} ${bad.length === 1 ? 'is' : 'are'} not valid on ${flavor} ${version}` +
        `${validation.removed.length > 0 ? ` (removed: ${validation.removed.join(', ')})` : ''}. Valid modes: ${validModes(flavor, version).join(', ')}`,
    );
  }
  return validation.normalized;
}

function formatView(view: SqlModeView): string {
  const lines = [
    `${view.flavor} ${view.version} — default sql_mode (${view.defaultLabel}): ${view.defaultSqlMode || '(empty)'}`,
    '',
  ];
  for (const [label, scope] of [
    ['GLOBAL', view.global],
    ['SESSION', view.session],
  ] as const) {
    lines.push(
      `${label} sql_mode: ${scope.raw || '(empty)'}${scope.strict ? '  [strict]' : '  [NOT strict]'}`,
    );
    if (scope.differsFromDefault.added.length)
      lines.push(`  added to default:   ${scope.differsFromDefault.added.join(', ')}`);
    if (scope.differsFromDefault.removed.length)
      lines.push(`  removed from default: ${scope.differsFromDefault.removed.join(', ')}`);
    for (const mode of scope.modes) lines.push(`  ${mode.name.padEnd(28)} ${mode.meaning}`);
    for (const risk of scope.risks) lines.push(`  risk: ${risk}`);
    lines.push('');
  }
  lines.push('Variables (default for this version; other flavor’s default when it differs):');
  for (const variable of view.variables)
    lines.push(
      `  ${variable.name.padEnd(28)} ${String(variable.value).padEnd(28)} default ${variable.default}` +
        `${variable.differsFromDefault ? '  [CHANGED]' : ''}${variable.otherFamilyDefault ? `  (${view.flavor === 'mariadb' ? 'MySQL' : 'MariaDB'}: ${variable.otherFamilyDefault})` : ''}${variable.restartRequired ? '  [restart to change]' : ''}`,
    );
  return `${lines.join('\n')}\n`;
}

function formatUpgrade(report: UpgradeReport): string {
  const lines = [
    `Target ${report.target.flavor} ${report.target.version}, sql_mode ${report.target.sqlMode || '(empty)'}`,
    `${report.statements} statements: ${report.failing} would fail, ${report.changing} would run with changed behaviour${report.parseErrors ? `, ${report.parseErrors} not parsed` : ''}.`,
  ];
  for (const item of report.items)
    lines.push(
      `  #${item.index + 1} ${item.rule} ${item.predictedError ? `${item.predictedError.warningOnly ? 'warning' : 'ERROR'} ${item.predictedError.code}` : ''}: ${item.message}`,
    );
  return `${lines.join('\n')}\n`;
}
