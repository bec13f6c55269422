// Shared state of one schema load (ddl-load.ts): the public result types, the per-load state, the
// tables being built, and the helpers every reader module uses on them.
//
// Design note: a load is one pass over the statements of its sources in order, each reader module
// (ddl-tables, ddl-columns, ddl-views, ddl-alter) changing `LoadState.tables` as the server would. A table
// under construction carries what the reader still has to resolve once the whole statement is read (the
// charsets its columns declared, before the table's own default is known). This module is the leaf
// they all import; it imports nothing of theirs.

import type { Flavor } from '../flavors/capabilities.js';
import type { ColumnInfo, SchemaModel, TableInfo } from '../model/schema.js';

/** One input of a schema load: a file (or pasted text) and its name for messages. */
export interface SchemaSource {
  name: string;
  text: string;
}

/** A statement the loader could not use although it defines or changes a table or view. */
export interface SkippedStatement {
  /** The source's name when several sources were loaded (a file name), else undefined. */
  source?: string;
  /** The table or view the statement defines or changes, when the loader got that far. */
  table?: string;
  line: number;
  column: number;
  /** The first words of the statement, e.g. `CREATE TABLE orders`. */
  statement: string;
  reason: string;
}

/** What the loader did: the documented `schemaLoad` object of the CLI JSON and the UI. */
export interface SchemaLoadSummary {
  tables: number;
  views: number;
  sequences: number;
  /** Loaded objects by name (`db.name` when the dump names the database). */
  loaded: string[];
  skipped: SkippedStatement[];
  /** Statements that define no table (INSERT, SET, LOCK, triggers, routines, …): read past, counted. */
  ignored: number;
  /** Tables loaded only in part (an element the loader could not read), with what was left out. */
  partial: SkippedStatement[];
}

export interface SchemaLoadResult {
  schema: SchemaModel;
  summary: SchemaLoadSummary;
}

export interface LoadOptions {
  flavor?: Flavor;
  /** Canonical text of an expression (null when it cannot); without it expressions keep their text. */
  printExpression?: (text: string, flavor: Flavor) => string | null;
  /** Target server version (for versioned comments and default collations). */
  version?: string;
}

export interface TableState extends Omit<TableInfo, 'kind'> {
  kind: 'table' | 'view' | 'sequence';
  /** Columns read since the table's charset was last applied, with what their DDL said. */
  pendingCharsets: [ColumnInfo, DeclaredCharset][];
  engineName: string | null;
  charset: string | null;
  /**
   * Lower-case names of the indexes the server added for foreign keys no index covered: a later
   * index that covers the foreign key replaces such an index (the server drops it).
   */
  foreignKeyIndexes?: string[];
}

export interface LoadState {
  flavor: Flavor;
  /** Expressions left to print in the parser's canonical form (see canonicalExpression). */
  expressionBudget: number;
  printExpression: LoadOptions['printExpression'];
  version: number;
  database: string | null;
  tables: Map<string, TableState>;
  summary: SchemaLoadSummary;
  source: string | undefined;
}

export const keyOf = (database: string | null, name: string): string =>
  `${(database ?? '').toLowerCase()}\u0000${name.toLowerCase()}`;

/** What a column's own DDL said about its character set; resolved against the table's when known. */
export interface DeclaredCharset {
  charset: string | null;
  collation: string | null;
  binary: boolean;
  json: boolean;
}

/** Reports the statement being read as skipped (or partial) with a reason at an offset of its text. */
export type Skip = (reason: string, offset: number) => void;

/**
 * Generated-column and functional key-part expressions go through `options.printExpression` (the
 * advisor passes node-sql-parser's printer, ddl.ts): 1–2 ms each, so a load prints at most this many
 * and keeps the text as written after that.
 */
export const EXPRESSION_BUDGET = 400;

export function canonicalExpression(raw: string, state: LoadState): string {
  const text = raw.trim();
  if (!state.printExpression || state.expressionBudget <= 0) return text;
  state.expressionBudget--;
  return state.printExpression(text, state.flavor) ?? text;
}

/**
 * The columns of a MariaDB sequence, as information_schema.COLUMNS lists them on MariaDB 10.11 (checked
 * by tests/integration/schema-load.test.ts): `SELECT * FROM seq` reads one row of them.
 */
export function sequenceColumns(): ColumnInfo[] {
  const column = (name: string, columnType: string): ColumnInfo => ({
    name,
    dataType: columnType.slice(0, columnType.indexOf('(')),
    columnType,
    nullable: false,
    charset: null,
    collation: null,
    generated: null,
    autoIncrement: false,
    hasDefault: false,
  });
  return [
    column('next_not_cached_value', 'bigint(21)'),
    column('minimum_value', 'bigint(21)'),
    column('maximum_value', 'bigint(21)'),
    column('start_value', 'bigint(21)'),
    column('increment', 'bigint(21)'),
    column('cache_size', 'bigint(21) unsigned'),
    column('cycle_option', 'tinyint(1) unsigned'),
    column('cycle_count', 'bigint(21)'),
  ];
}

export function emptyTable(database: string | null, name: string): TableState {
  return {
    kind: 'table',
    pendingCharsets: [],
    schema: database,
    name,
    columns: [],
    indexes: [],
    engine: null,
    engineName: null,
    collation: null,
    charset: null,
    rowsEstimate: null,
  };
}
