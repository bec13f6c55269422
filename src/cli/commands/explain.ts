// `sargable explain`: EXPLAIN statements on a live server (or parse pasted EXPLAIN output) into the plan model.

import { cliConnections, printNotices } from '../connections.js';
import { parsePlan, walkPlan, type PlanNode } from '../../core/explain/index.js';
import { splitStatements } from '../../core/sql/split.js';
import { AdvisorError } from '../../shared/errors.js';
import { queryKiller } from '../../main/services/connection.js';
import { explainStatement } from '../../main/services/explain.js';
import { parseCommonArgs } from '../args.js';
import { dsnWithPassword, readInput } from '../input.js';
import { UsageError, type CliCommand } from '../io.js';

export const usage = `Usage: sargable explain --dsn URL [--analyze] [--format json|text] [FILE|-]
       sargable explain --parse [--flavor mysql|mariadb] [--format json|text] [FILE|-]

EXPLAIN each statement on the server and print the plan tree (access type, key, rows, cost, flags).
EXPLAIN never executes the statement. --analyze runs EXPLAIN ANALYZE (MySQL 8.0.18+) or ANALYZE FORMAT=JSON
(MariaDB), which DOES execute it: only SELECT, in a read-only transaction that is rolled back, with a time limit.
--parse reads pasted EXPLAIN output instead (tabular +---+, \\G rows, FORMAT=JSON or FORMAT=TREE).

Options:
  --dsn URL              mysql://user@host:3306/db (password: see "sargable --help")
  --analyze              execute SELECTs to get actual rows and times (consent)
  --timeout SECONDS      time limit per EXPLAIN (default 5; ANALYZE 10): our statement is killed after it
  --allow-routines       plan statements that call functions that may be stored routines (the optimizer
                         can run them while planning, with your privileges); never with --analyze
  --parse                parse EXPLAIN output from FILE instead of running EXPLAIN
  --flavor mysql|mariadb flavor of pasted output (detected when omitted)
  --format text|json     output format (default text)`;

export const run: CliCommand = async (argv, io) => {
  const args = parseCommonArgs(
    argv,
    {
      dsn: { type: 'string' },
      analyze: { type: 'boolean' },
      timeout: { type: 'string' },
      'allow-routines': { type: 'boolean' },
      parse: { type: 'boolean' },
      flavor: { type: 'string' },
    },
    { io, usage },
  );
  if (!args) return 0;
  const { values, positionals, format } = args;
  if (positionals.length > 1) throw new UsageError('Give one FILE (or - for standard input).');
  if (!values.parse && !values.dsn)
    throw new UsageError('--dsn is required (or --parse for pasted EXPLAIN output).');
  const input = await readInput(positionals[0], io);

  if (values.parse) {
    const flavor = values.flavor === 'mariadb' ? 'mariadb' : values.flavor === 'mysql' ? 'mysql' : undefined;
    const parsed = parsePlan(input, flavor ? { flavor } : {});
    if (!parsed.ok) {
      const where = parsed.error.line ? ` at line ${parsed.error.line}` : '';
      throw new AdvisorError(
        'PARSE_FAILED',
        `Cannot read the EXPLAIN output${where}: ${parsed.error.message}`,
      );
    }
    io.stdout(
      format === 'json'
        ? `${JSON.stringify({ plan: parsed.report.root, format: parsed.report.format, flavor: parsed.report.flavor, warnings: parsed.report.warnings }, null, 2)}\n`
        : formatTree(parsed.report.root),
    );
    return 0;
  }

  const timeoutSeconds = values.timeout === undefined ? (values.analyze ? 10 : 5) : Number(values.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
    throw new UsageError('--timeout must be a positive number of seconds');
  const dsn = dsnWithPassword(values.dsn ?? '', io);
  const connections = cliConnections();
  const opened = await connections.openConnection({ dsn });
  printNotices(opened, io.stderr);
  try {
    const { connection, server, target } = connections.get(opened.connectionId);
    const killQuery = queryKiller(target);
    const statements = [];
    const errors = [];
    for (const [index, slice] of splitStatements(input).entries()) {
      try {
        const result = await explainStatement(connection, server, slice.sql, {
          formats: server.capabilities.explainTree ? ['json', 'tree'] : ['json'],
          timeoutMs: timeoutSeconds * 1000,
          killQuery,
          ...(values.analyze ? { analyze: true } : {}),
          ...(values['allow-routines'] ? { allowRoutineCalls: true } : {}),
        });
        statements.push({ index, sql: slice.sql, plan: result.plan, raw: result.raw });
      } catch (error) {
        if (!(error instanceof AdvisorError)) throw error;
        errors.push({
          index,
          sql: slice.sql,
          line: slice.line,
          code: error.code,
          message: error.userMessage,
          ...(error.details.serverCode ? { serverCode: error.details.serverCode } : {}),
          ...(error.details.hint ? { hint: error.details.hint } : {}),
        });
      }
    }
    const report = {
      server: { flavor: server.flavor, version: server.version, source: 'dsn' as const },
      statements,
      errors,
    };
    if (format === 'json') io.stdout(`${JSON.stringify(report, null, 2)}\n`);
    else {
      for (const statement of statements)
        io.stdout(
          `-- statement ${statement.index + 1}: ${statement.sql.split('\n')[0]}\n${formatTree(statement.plan)}\n`,
        );
      for (const error of errors)
        io.stderr(
          `statement ${error.index + 1} (line ${error.line}): ${error.message}${error.serverCode ? ` (server error ${error.serverCode})` : ''}\n`,
        );
    }
    return errors.length > 0 && statements.length === 0 ? 2 : 0;
  } finally {
    await connections.closeAll();
  }
};

/** An indented plan tree for terminals. */
export function formatTree(root: PlanNode): string {
  const lines: string[] = [];
  const visit = (node: PlanNode, depth: number) => {
    const parts = [node.operation];
    if (node.table) parts.push(`on ${node.table}`);
    if (node.accessType) parts.push(`type=${node.accessType}`);
    if (node.key) parts.push(`key=${node.key}`);
    if (node.rowsEstimated !== null) parts.push(`rows≈${node.rowsEstimated}`);
    if (node.rowsActual !== null) parts.push(`actual=${node.rowsActual}`);
    if (node.cost !== null) parts.push(`cost=${node.cost}`);
    if (node.flags.length) parts.push(`[${node.flags.join(', ')}]`);
    lines.push(`${'  '.repeat(depth)}${depth ? '└ ' : ''}${parts.join('  ')}`);
    for (const child of node.children) visit(child, depth + 1);
  };
  visit(root, 0);
  const scans = walkPlan(root).filter((node) => node.flags.includes('full-scan')).length;
  if (scans) lines.push(`${scans} full table scan(s)`);
  return `${lines.join('\n')}\n`;
}
