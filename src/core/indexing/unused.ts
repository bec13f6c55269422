// Index hygiene from the server's usage counters: indexes nothing has read since the counters started.
//
// Design note: the counters are the server's (main/services/index-usage.ts reads them): on MySQL
// performance_schema.table_io_waits_summary_by_index_usage (what sys.schema_unused_indexes reads), on
// MariaDB information_schema.INDEX_STATISTICS, which only counts while `userstat` is ON. Without them the
// answer is "cannot tell", never "unused". A count of zero only means "not used since the counters
// started": since the server started (MySQL; uptime is reported), or since userstat was switched on or
// FLUSH INDEX_STATISTICS ran (MariaDB; the server does not say when). Monthly reports, failover and rarely
// run batch jobs use indexes that a short window never sees, so every answer carries the window and the
// DROP is offered in the safe order (INVISIBLE / IGNORED first, then DROP INDEX). Unique and primary keys
// are constraints and never proposed; an index that is already invisible/ignored is not listed; an index
// whose leading columns are the only ones serving a FOREIGN KEY cannot be dropped (ERROR 1553) and says so.

import type { SchemaModel, TableInfo } from '../model/schema.js';
import type { ServerInfo } from '../model/server-info.js';
import { dropSteps, safeStepNote } from './hygiene.js';
import type { WorkloadPlan } from './workload.js';

/** Reads through one index, as the server counts them. */
export interface IndexUsageRow {
  table: string;
  index: string;
  reads: number;
}

/** A FOREIGN KEY's columns on its (child) table. */
export interface ForeignKeyColumns {
  table: string;
  name: string;
  columns: string[];
}

export interface UnusedIndex {
  table: string;
  index: string;
  columns: string[];
  /** Safe step first (INVISIBLE / IGNORED where the server has it), then the DROP; each runnable. */
  ddl: string[];
  notes: string[];
  /** The only index serving this FOREIGN KEY: the DROP fails until another index starts with its columns. */
  foreignKey?: string;
}

export interface UnusedIndexReport {
  /** `measured`: the usage counters were read; `unknown`: this server cannot tell (see `reason`). */
  status: 'measured' | 'unknown';
  source: 'performance_schema' | 'index_statistics' | null;
  /** Why the server cannot tell, and how to make it able to. */
  reason?: string;
  /** Seconds since the server started (SHOW GLOBAL STATUS 'Uptime'). */
  uptimeSeconds: number | null;
  /** What the answer does not prove: the window, tables without data. */
  caveats: string[];
  indexes: UnusedIndex[];
}

/** Below this much uptime the window is called out as short (a week: weekly jobs at least once). */
export const SHORT_WINDOW_SECONDS = 7 * 24 * 3600;

export function unknownUsage(reason: string, uptimeSeconds: number | null): UnusedIndexReport {
  return { status: 'unknown', source: null, reason, uptimeSeconds, caveats: [], indexes: [] };
}

/** How long `seconds` is, for a person: `3 days`, `5 hours`, `12 minutes`. */
export function spanText(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  if (days >= 2) return `${days} days`;
  const hours = Math.floor(seconds / 3600);
  if (hours >= 2) return `${hours} hours`;
  return `${Math.max(1, Math.floor(seconds / 60))} minutes`;
}

/**
 * The unused indexes of `schema`'s tables (or of `tables`): every visible, non-unique index with no reads.
 * `observed` lists the tables the counters have rows for (MySQL: opened since start); null when the
 * source lists only used indexes (MariaDB's INDEX_STATISTICS), so every table counts as observed.
 */
export function classifyUnused(
  schema: SchemaModel,
  server: ServerInfo,
  input: {
    source: 'performance_schema' | 'index_statistics';
    usage: readonly IndexUsageRow[];
    observed: ReadonlySet<string> | null;
    uptimeSeconds: number | null;
    foreignKeys?: readonly ForeignKeyColumns[];
    tables?: readonly string[];
    /** Indexes the workload needs (it uses or extends them): never proposed for dropping. */
    needed?: readonly { table: string; index: string }[];
  },
): UnusedIndexReport {
  const needed = new Set(
    (input.needed ?? []).map((entry) => `${entry.table.toLowerCase()}.${entry.index.toLowerCase()}`),
  );
  const kept: string[] = [];
  const wanted = input.tables ? new Set(input.tables.map((name) => name.toLowerCase())) : null;
  const reads = new Map<string, number>();
  for (const row of input.usage) {
    const key = `${row.table.toLowerCase()}.${row.index.toLowerCase()}`;
    reads.set(key, (reads.get(key) ?? 0) + row.reads);
  }
  const caveats: string[] = [];
  const indexes: UnusedIndex[] = [];
  const unobserved: string[] = [];
  for (const table of schema.tables) {
    if (table.kind === 'view' || (wanted && !wanted.has(table.name.toLowerCase()))) continue;
    const candidates = table.indexes.filter((index) => !index.unique && !index.primary && index.visible);
    if (candidates.length === 0) continue;
    if (input.observed && !input.observed.has(table.name.toLowerCase())) {
      unobserved.push(table.name);
      continue;
    }
    for (const index of candidates) {
      const key = `${table.name.toLowerCase()}.${index.name.toLowerCase()}`;
      if ((reads.get(key) ?? 0) > 0) continue;
      if (needed.has(key)) {
        kept.push(`${table.name}.${index.name}`);
        continue;
      }
      const columns = index.parts.map((part) => part.column ?? `(${part.expression ?? ''})`);
      const foreignKey = onlyIndexFor(table, index.name, input.foreignKeys ?? []);
      const notes = [
        `${index.name} (${columns.join(', ')}) has not been read ${windowText(input.source, input.uptimeSeconds)}.`,
      ];
      if (foreignKey)
        notes.push(
          `It is the only index serving FOREIGN KEY ${foreignKey}: InnoDB refuses to drop it (ERROR 1553) until another index starts with ${columns.join(', ')}; it is checked on every write to the parent table.`,
        );
      const ddl = dropSteps(table.name, index.name, server);
      if (ddl.length > 1) notes.push(safeStepNote(server));
      indexes.push({
        table: table.name,
        index: index.name,
        columns,
        ddl,
        notes,
        ...(foreignKey ? { foreignKey } : {}),
      });
    }
  }
  caveats.push(
    input.source === 'performance_schema'
      ? `Counted by performance_schema since the server started${input.uptimeSeconds === null ? '' : ` ${spanText(input.uptimeSeconds)} ago`}; the counters restart with the server (and with TRUNCATE of the summary table).`
      : 'Counted by userstat (information_schema.INDEX_STATISTICS) since it was switched on or FLUSH INDEX_STATISTICS last ran; the server does not say when that was.',
  );
  if (input.uptimeSeconds !== null && input.uptimeSeconds < SHORT_WINDOW_SECONDS)
    caveats.push(
      `The server has been up ${spanText(input.uptimeSeconds)}: weekly or monthly jobs, reports and failover paths may use an index that this window never saw.`,
    );
  if (unobserved.length > 0)
    caveats.push(
      `No usage data for ${unobserved.join(', ')}: not opened since the server started, so its indexes are neither used nor unused yet.`,
    );
  if (kept.length > 0)
    caveats.push(
      `${kept.join(', ')} ${kept.length === 1 ? 'has' : 'have'} no reads in the window either, but the workload needs ${kept.length === 1 ? 'it' : 'them'} (used as is or extended by the index set): not proposed for dropping.`,
    );
  caveats.push('Counters are per server: check every replica that serves reads before dropping.');
  return {
    status: 'measured',
    source: input.source,
    uptimeSeconds: input.uptimeSeconds,
    caveats,
    indexes,
  };
}

function windowText(source: UnusedIndexReport['source'], uptimeSeconds: number | null): string {
  if (source === 'index_statistics') return 'since userstat started counting';
  return uptimeSeconds === null
    ? 'since the server started'
    : `in the ${spanText(uptimeSeconds)} since the server started`;
}

/** The FOREIGN KEY for which `indexName` is the only index starting with its columns, if any. */
function onlyIndexFor(
  table: TableInfo,
  indexName: string,
  foreignKeys: readonly ForeignKeyColumns[],
): string | undefined {
  const starts = (columns: string[], parts: TableInfo['indexes'][number]['parts']) =>
    columns.every((column, i) => parts[i]?.column?.toLowerCase() === column.toLowerCase());
  for (const key of foreignKeys) {
    if (key.table.toLowerCase() !== table.name.toLowerCase()) continue;
    const serving = table.indexes.filter((index) => starts(key.columns, index.parts));
    if (serving.length === 1 && serving[0]!.name.toLowerCase() === indexName.toLowerCase()) return key.name;
  }
  return undefined;
}

/** The existing indexes a workload design uses as they are or extends. */
export function neededIndexes(plan: WorkloadPlan): { table: string; index: string }[] {
  const used = plan.queries.flatMap((query) =>
    query.tables.flatMap((table) =>
      table.via === 'existing' && table.uses ? [{ table: table.table, index: table.uses }] : [],
    ),
  );
  const extended = plan.indexes.flatMap((index) =>
    index.existingIndex ? [{ table: index.table, index: index.existingIndex }] : [],
  );
  return [...used, ...extended];
}
