// Render an export plan as a script: combined ALTER TABLE per table, rollback, pt-online-schema-change and gh-ost variants.

import { capabilitiesFor, type Capabilities, type Flavor } from '../flavors/capabilities.js';
import { flavorName } from '../flavors/names.js';
import { keyPartsText, quoteName } from './alter-clauses.js';
import { onlineClause, onlineModeFor, rollbackMode, shapeOf, type OnlineMode } from './online-ddl.js';
import type { ExportItem, ExportPlan, PlannedColumn, PlannedIndex, TablePlan } from './plan.js';
import { forwardDrops, rollbackDrops } from './render-drops.js';
import { renderShellScript, type ShellRun } from './shell-script.js';

/** Script variants. `sql` is a plain script for the `mysql`/`mariadb` client. */
export const exportVariants = ['sql', 'pt-osc', 'gh-ost'] as const;
export type ExportVariant = (typeof exportVariants)[number];

/** Table size as information_schema reports it. */
export interface TableStats {
  rows: number | null;
  dataBytes: number | null;
  indexBytes: number | null;
}

/** Rendering options. */
export interface RenderOptions {
  flavor: Flavor;
  version: string;
  variant?: ExportVariant;
  rollback?: boolean;
  /** Header: where the script is meant to run (profile name, host). */
  serverLabel?: string;
  database?: string | null;
  generatedAt: string;
  sargableVersion: string;
  /** Seconds for `SET SESSION lock_wait_timeout` (default 10). */
  lockWaitTimeout?: number;
  /** MariaDB `IF NOT EXISTS` / `IF EXISTS` guards (a note on servers without them). */
  idempotent?: boolean;
  /** Add new virtual columns INSTANT first, then index them with LOCK=NONE (two statements per table). */
  splitOnline?: boolean;
  /**
   * Accepted index drops: false (default) hides them first (INVISIBLE / IGNORED, the safe step) where the
   * server can; true renders the later DROP INDEX step, whose rollback re-creates the index.
   */
  dropStep?: boolean;
  /** Global variables (for Group Replication / Galera detection). */
  variables?: Readonly<Record<string, string | number | null>>;
  /** Table sizes by lower-case table name. */
  tableStats?: Readonly<Record<string, TableStats>>;
  largeTableRows?: number;
  largeTableBytes?: number;
}

/** One rendered statement for a table (structured, for the UI preview and tests). */
export interface RenderedStatement {
  table: string;
  sql: string;
  mode: OnlineMode;
}

/** The rendered script and its parts. */
export interface RenderedScript {
  text: string;
  statements: RenderedStatement[];
  warnings: string[];
}

const DEFAULT_LARGE_ROWS = 1_000_000;
const DEFAULT_LARGE_BYTES = 1024 ** 3;

/** `-- ` comment lines for free text (each input line prefixed). */
function comment(text: string, indent = ''): string[] {
  return text.split('\n').map((line) => `-- ${indent}${line}`.trimEnd());
}

/** Environment warnings: Group Replication, Galera, large tables, STORED columns. */
export function environmentWarnings(plan: ExportPlan, options: RenderOptions): string[] {
  const warnings: string[] = [];
  const variables = Object.fromEntries(
    Object.entries(options.variables ?? {}).map(([key, value]) => [
      key.toLowerCase(),
      value === null ? '' : String(value),
    ]),
  );
  const on = (name: string): boolean => /^(on|1|yes|true)$/i.test(variables[name] ?? '');
  // A configured group name is the sign of a Group Replication member (the variable exists, empty, whenever the plugin is loaded).
  if ((variables.group_replication_group_name ?? '') !== '')
    warnings.push(
      'Group Replication detected: online DDL can hold the metadata lock across the group until every member applied it (8.0.23); with group_replication_consistency other than EVENTUAL writes may stall. Run in a quiet window, check group_replication_consistency, or use pt-online-schema-change / gh-ost.',
    );
  if (
    on('wsrep_on') ||
    ((variables.wsrep_provider ?? 'none') !== 'none' && (variables.wsrep_provider ?? '') !== '')
  )
    warnings.push(
      `Galera / Percona XtraDB Cluster detected (wsrep_on): with wsrep_OSU_method=${variables.wsrep_osu_method || 'TOI'} DDL runs on every node at once and blocks the cluster's writes to the table; consider NBO (PXC 8.0) or RSU per node, or pt-online-schema-change.`,
    );
  const largeRows = options.largeTableRows ?? DEFAULT_LARGE_ROWS;
  const largeBytes = options.largeTableBytes ?? DEFAULT_LARGE_BYTES;
  for (const table of plan.tables) {
    const stats = options.tableStats?.[table.table.toLowerCase()];
    const rows = stats?.rows ?? table.info?.rowsEstimate ?? null;
    const bytes = stats ? (stats.dataBytes ?? 0) + (stats.indexBytes ?? 0) : null;
    if ((rows !== null && rows >= largeRows) || (bytes !== null && bytes >= largeBytes))
      warnings.push(
        `Table ${table.table} is large (${[rows !== null ? `≈ ${rows.toLocaleString('en-US')} rows` : '', bytes !== null ? `≈ ${formatBytes(bytes)}` : ''].filter(Boolean).join(', ')}): the index build takes a while and needs temporary space (innodb_online_alter_log_max_size for concurrent writes); run off-peak or with pt-online-schema-change / gh-ost.`,
      );
    if (table.columns.some((column) => column.generated?.stored))
      warnings.push(
        `Table ${table.table}: a STORED generated column rebuilds the whole table (ALGORITHM=COPY).`,
      );
  }
  return warnings;
}

function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

function columnClause(column: PlannedColumn, guard: boolean): string {
  return `ADD COLUMN ${guard ? 'IF NOT EXISTS ' : ''}${quoteName(column.name)} ${column.definition}`;
}

function indexClause(index: PlannedIndex, guard: boolean): string {
  const add = `ADD ${index.unique ? 'UNIQUE ' : ''}INDEX ${guard ? 'IF NOT EXISTS ' : ''}${quoteName(index.name)} (${keyPartsText(index.parts)})`;
  // An extension drops the shorter index and re-adds the name with the longer key in the same statement.
  return index.replaces ? `DROP INDEX ${guard ? 'IF EXISTS ' : ''}${quoteName(index.name)}, ${add}` : add;
}

/** Rollback clauses for one index: drop it, and re-add the key it replaced (when the schema told us it). */
function rollbackIndexClauses(index: PlannedIndex, guard: boolean): string[] {
  const drop = `DROP INDEX ${guard ? 'IF EXISTS ' : ''}${quoteName(index.name)}`;
  const old = index.replaces;
  if (!old?.parts) return [drop];
  return [
    drop,
    `ADD ${old.unique ? 'UNIQUE ' : ''}INDEX ${guard ? 'IF NOT EXISTS ' : ''}${quoteName(old.name)} (${keyPartsText(old.parts)})`,
  ];
}

/** Statements (clause lists with their mode) for one table's forward change. */
function forwardStatements(
  table: TablePlan,
  capabilities: Capabilities,
  split: boolean,
  guard: boolean,
): { clauses: string[]; mode: OnlineMode }[] {
  const columns = table.columns.map((column) => columnClause(column, guard));
  const indexes = table.indexes.map((index) => indexClause(index, guard));
  const virtualOnly = table.columns.every((column) => !column.generated?.stored);
  if (split && virtualOnly && table.columns.length > 0 && table.indexes.length > 0) {
    // Once the columns exist, indexes on them build like plain ones (LOCK=NONE); functional ones still need SHARED.
    const indexShape = {
      virtualColumns: 0,
      storedColumns: 0,
      plainIndexes: table.indexes.filter((index) => !index.functional).length,
      expressionIndexes: table.indexes.filter((index) => index.functional).length,
    };
    return [
      {
        clauses: columns,
        mode: onlineModeFor(
          { ...indexShape, plainIndexes: 0, expressionIndexes: 0, virtualColumns: table.columns.length },
          capabilities,
        ),
      },
      { clauses: indexes, mode: onlineModeFor(indexShape, capabilities) },
    ];
  }
  return [{ clauses: [...columns, ...indexes], mode: onlineModeFor(shapeOf(table), capabilities) }];
}

function alterText(table: string, clauses: readonly string[], mode: OnlineMode): string {
  const option = onlineClause(mode);
  const lines = [...clauses, ...(option ? [option] : [])];
  return `ALTER TABLE ${quoteName(table)}\n  ${lines.join(',\n  ')};`;
}

function itemsOf(table: TablePlan, ids: readonly string[]): ExportItem[] {
  return ids.flatMap((id) => table.items.filter((item) => item.id === id));
}

function describeChange(
  table: TablePlan,
  label: string,
  ids: readonly string[],
  remarks: readonly string[],
): string[] {
  const lines = [`-- + ${label}`];
  for (const remark of remarks) lines.push(...comment(remark, '  '));
  const seen = new Set<string>();
  for (const item of itemsOf(table, ids)) {
    for (const note of item.notes.slice(0, 2)) {
      if (seen.has(note)) continue;
      seen.add(note);
      lines.push(...comment(`Why: ${note}`, '  '));
    }
    for (const source of item.sources) {
      if (seen.has(source.checksum)) continue;
      seen.add(source.checksum);
      lines.push(`--   Serves 0x${source.checksum}: ${oneLine(source.fingerprint, 160)}`);
    }
    if (item.rewrittenSql && !seen.has(item.rewrittenSql)) {
      seen.add(item.rewrittenSql);
      lines.push(`--   The query must change to: ${oneLine(item.rewrittenSql, 200)}`);
    }
    const verification = item.verification;
    if (verification && !seen.has(`v:${item.id}`)) {
      seen.add(`v:${item.id}`);
      const plan = (lines: typeof verification.before): string =>
        lines
          .map(
            (line) =>
              `${line.table ?? '?'} type=${line.type ?? 'NULL'} key=${line.key ?? 'NULL'} rows=${line.rows ?? '?'}`,
          )
          .join('; ');
      const outcome = [
        verification.verdict,
        typeof verification.rowsReduction === 'number'
          ? `${Math.round(verification.rowsReduction * 1000) / 10}% fewer rows examined`
          : undefined,
        verification.usesIndex ? 'uses the new index' : 'does NOT use the new index',
      ].filter((part): part is string => part !== undefined);
      lines.push(
        `--   EXPLAIN before: ${plan(verification.before)}`,
        `--   EXPLAIN after:  ${plan(verification.after)} (verified ${verification.verifiedAt}${verification.server ? ` on ${verification.server}` : ''})`,
        `--   Result: ${outcome.join(', ')}`,
      );
    }
  }
  return lines;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function header(
  plan: ExportPlan,
  options: RenderOptions,
  title: string,
  warnings: readonly string[],
): string[] {
  const changes = plan.tables.reduce(
    (sum, table) => sum + table.columns.length + table.indexes.length + table.drops.length,
    0,
  );
  const skipped = options.rollback
    ? ''
    : `; ${plan.skipped.length} accepted suggestion(s) not exported${plan.skipped.length ? ' (listed at the end)' : ''}`;
  const lines = [
    `-- ${title}`,
    `-- Server: ${flavorName(options.flavor)} ${options.version}${options.serverLabel ? ` (${options.serverLabel})` : ''}`,
    ...(options.database ? [`-- Database: ${options.database}`] : []),
    `-- Generated at: ${options.generatedAt} by Sargable ${options.sargableVersion}`,
    `-- ${changes} change(s) on ${plan.tables.length} table(s)${skipped}.`,
  ];
  if (!plan.schemaChecked)
    lines.push(
      '-- The current schema was not checked: connect (or give the CREATE TABLE statements) to catch stale suggestions.',
    );
  for (const warning of warnings) lines.push(...comment(`WARNING: ${warning}`));
  return lines;
}

function skippedSection(plan: ExportPlan): string[] {
  if (plan.skipped.length === 0) return [];
  const lines = ['', '-- Not exported:'];
  for (const { item, reason } of plan.skipped)
    lines.push(`--   ${oneLine(item.ddl.join(' '), 200)}`, `--     because ${reason}`);
  return lines;
}

function guardNote(options: RenderOptions, capabilities: Capabilities): string[] {
  if (!options.idempotent) return [];
  return capabilities.alterIfExists && capabilities.addIndexIfNotExists
    ? [
        '-- Idempotent: IF NOT EXISTS / IF EXISTS guards make a re-run skip what is already there (with a note).',
      ]
    : [
        `-- Idempotent guards requested, but ${flavorName(options.flavor)} ${options.version} has no ADD INDEX/COLUMN IF NOT EXISTS:`,
        '-- a re-run fails with ERROR 1061 (duplicate key name) or 1060 (duplicate column) and changes nothing more.',
      ];
}

/** Render the forward script (or, with `rollback`, the rollback script) for the chosen variant. */
export function renderScript(plan: ExportPlan, options: RenderOptions): RenderedScript {
  const capabilities = capabilitiesFor(options.flavor, options.version);
  const variant = options.variant ?? 'sql';
  const guard = Boolean(options.idempotent) && capabilities.alterIfExists && capabilities.addIndexIfNotExists;
  const warnings = environmentWarnings(plan, options);
  const statementWarnings: string[] = [];
  const statements: RenderedStatement[] = [];
  const body: string[] = [];
  const rollback = Boolean(options.rollback);

  const runs: ShellRun[] = [];
  const tables = rollback ? [...plan.tables].reverse() : plan.tables;
  for (const table of tables) {
    const tableStart = body.length + 1;
    body.push(
      '',
      `-- Table ${table.table}${table.info?.rowsEstimate != null ? ` (≈ ${table.info.rowsEstimate.toLocaleString('en-US')} rows)` : ''}`,
    );
    if (rollback) {
      for (const index of table.indexes)
        if (index.replaces && !index.replaces.parts) {
          const warning = `${table.table}: ${index.name} replaced an index whose key is unknown (no schema was given); re-create it by hand after this rollback.`;
          body.push(...comment(`WARNING: ${warning}`));
          statementWarnings.push(warning);
        }
      const clauses = [
        ...[...table.indexes].reverse().flatMap((index) => rollbackIndexClauses(index, guard)),
        ...[...table.columns]
          .reverse()
          .map((column) => `DROP COLUMN ${guard ? 'IF EXISTS ' : ''}${quoteName(column.name)}`),
      ];
      // Dropped (or hidden) indexes come back first: the forward script removed them last.
      const restores = rollbackDrops(table, capabilities, Boolean(options.dropStep));
      const parts = [
        ...restores,
        ...(clauses.length > 0 ? [{ clauses, mode: rollbackMode(capabilities) }] : []),
      ];
      if (variant !== 'sql') {
        runs.push(
          shellRun(
            table.table,
            parts.flatMap((part) => part.clauses),
            body.splice(tableStart),
          ),
        );
        continue;
      }
      for (const part of parts) {
        statements.push({
          table: table.table,
          sql: alterText(table.table, part.clauses, part.mode),
          mode: part.mode,
        });
        body.push(alterText(table.table, part.clauses, part.mode));
      }
      continue;
    }
    for (const column of table.columns)
      body.push(
        ...describeChange(table, `COLUMN ${quoteName(column.name)} ${column.definition}`, column.itemIds, []),
      );
    for (const index of table.indexes)
      body.push(
        ...describeChange(
          table,
          `${index.unique ? 'UNIQUE ' : ''}INDEX ${quoteName(index.name)} (${keyPartsText(index.parts)})`,
          index.itemIds,
          index.remarks,
        ),
      );
    const drops = forwardDrops(table, capabilities, Boolean(options.dropStep));
    body.push(...drops.comments);
    const adds = table.columns.length + table.indexes.length > 0;
    if (variant !== 'sql') {
      // The tool copies the table: one run per table with every clause, ALGORITHM/LOCK do not apply.
      const clauses = [
        ...(adds ? forwardStatements(table, capabilities, false, guard).flatMap((part) => part.clauses) : []),
        ...drops.statements.flatMap((part) => part.clauses),
      ];
      const mode: OnlineMode = { algorithm: null, lock: null, effect: `${variant} copies the table` };
      statements.push({ table: table.table, sql: alterText(table.table, clauses, mode), mode });
      runs.push(shellRun(table.table, clauses, body.splice(tableStart)));
      continue;
    }
    for (const { clauses, mode } of [
      ...(adds ? forwardStatements(table, capabilities, Boolean(options.splitOnline), guard) : []),
      ...drops.statements,
    ]) {
      body.push(`-- Online: ${mode.effect}`);
      if (mode.warning) {
        body.push(...comment(`WARNING: ${mode.warning}`));
        statementWarnings.push(`${table.table}: ${mode.warning}`);
      }
      statements.push({ table: table.table, sql: alterText(table.table, clauses, mode), mode });
      body.push(alterText(table.table, clauses, mode));
    }
  }

  const title = `${rollback ? 'Rollback of the' : 'Sargable'} index changes${variant === 'sql' ? '' : ` (${variant === 'pt-osc' ? 'pt-online-schema-change' : 'gh-ost'} script)`}`;
  const head = [...header(plan, options, title, warnings), ...guardNote(options, capabilities)];
  const tail = rollback ? [] : skippedSection(plan);
  if (variant !== 'sql') {
    const text = renderShellScript({
      tool: variant,
      header: [
        ...head.map(uncomment),
        'The tool copies the table (triggers or the binlog keep it in sync); ALGORITHM/LOCK do not apply.',
        ...(variant === 'gh-ost'
          ? ['gh-ost may never finish its row copy under a heavy write load: watch its status and throttle.']
          : []),
      ],
      database: options.database ?? null,
      runs,
      footer: tail.filter((line) => line !== '').map(uncomment),
    });
    return { text, statements, warnings: [...warnings, ...statementWarnings] };
  }
  const lines = [
    ...head,
    `-- Run with: ${options.flavor === 'mariadb' ? 'mariadb' : 'mysql'} ${options.database ? `--database=${options.database} ` : ''}< this-file.sql`,
    '',
    `-- Give up after ${options.lockWaitTimeout ?? 10} s waiting for the table's metadata lock instead of queueing every other query behind the DDL (the default wait is a year on MySQL, a day on MariaDB).`,
    `SET SESSION lock_wait_timeout = ${options.lockWaitTimeout ?? 10};`,
    ...body,
    ...tail,
  ];
  return { text: `${lines.join('\n')}\n`, statements, warnings: [...warnings, ...statementWarnings] };
}

/** A `-- ` comment line as plain text (for the shell script's `#` comments). */
function uncomment(line: string): string {
  return line.replace(/^-- ?/, '');
}

/** One tool run: the table's clauses joined, the comment lines rendered above it. */
function shellRun(table: string, clauses: readonly string[], described: string[]): ShellRun {
  return { table, alter: clauses.join(', '), comments: described.map(uncomment) };
}
