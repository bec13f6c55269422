// Distinct-value counts from the server's own statistics, before any sample is taken (issue 18 item 8).
/*
 * Used for tables larger than the sample (a smaller one is read whole and counted exactly). Order of trust: a histogram (MySQL 8 information_schema.COLUMN_STATISTICS; MariaDB's engine-independent
 * mysql.column_stats) over the whole table, then the cardinality InnoDB keeps for an index whose first key
 * part is the column or expression (an estimate from a few sampled pages). Anything else is left to the
 * random sample in selectivity.ts. Every number says where it came from and how far to trust it.
 * Read-only SELECTs of metadata; a missing table or privilege just means "no statistics".
 */

import type { Connection, RowDataPacket } from 'mysql2/promise';
import { findTable, type SchemaModel } from '../../core/model/schema.js';
import type { ServerInfo } from '../../core/model/server-info.js';

/** Where a distinct count came from, and how far to trust it. */
export interface DistinctBasis {
  source: 'histogram' | 'column-stats' | 'index-cardinality' | 'sample';
  /** `exact`: counted over every row the statistics or sample saw; `estimate`: extrapolated or page-sampled. */
  confidence: 'exact' | 'high' | 'medium' | 'low' | 'estimate';
  /** Rows the number is about (sample size, or the table's rows for statistics), when known. */
  rows: number | null;
  /** Human detail: histogram type and sampling rate, index name … */
  detail: string;
}

export interface ServerDistinct {
  distinct: number;
  basis: DistinctBasis;
}

const canonical = (text: string) => text.replace(/[`\s]/g, '').toLowerCase();

/**
 * Distinct counts the server's statistics know for `columns` (schema names) and `expressions` (SQL) of one
 * table, keyed like TableSample.distinct (`column:<lower name>`, `expression:<key>`).
 */
export async function serverDistinctCounts(
  connection: Connection,
  server: ServerInfo,
  database: string,
  table: string,
  columns: readonly string[],
  expressions: readonly { key: string; sql: string }[],
  tableRows: number | null,
): Promise<Record<string, ServerDistinct>> {
  const found: Record<string, ServerDistinct> = {};
  const wanted = new Map(columns.map((column) => [column.toLowerCase(), column]));
  const query = async (sql: string, params: unknown[]): Promise<RowDataPacket[]> => {
    try {
      const [rows] = await connection.query<RowDataPacket[]>(sql, params);
      return rows;
    } catch {
      return [];
    }
  };

  if (server.flavor === 'mariadb') {
    for (const row of await query(
      `SELECT c.column_name AS col, c.nulls_ratio AS nulls, c.avg_frequency AS freq, t.cardinality AS n
         FROM mysql.column_stats c JOIN mysql.table_stats t ON t.db_name = c.db_name AND t.table_name = c.table_name
        WHERE c.db_name = ? AND c.table_name = ?`,
      [database, table],
    )) {
      const column = String(row.col).toLowerCase();
      const rows = Number(row.n);
      const frequency = Number(row.freq);
      const nulls = Number(row.nulls) || 0;
      if (!wanted.has(column) || !(rows > 0) || !(frequency > 0)) continue;
      found[`column:${column}`] = {
        distinct: Math.max(1, Math.round((rows * (1 - nulls)) / frequency)),
        basis: {
          source: 'column-stats',
          confidence: 'exact',
          rows,
          detail: 'mysql.column_stats (ANALYZE TABLE … PERSISTENT FOR COLUMNS)',
        },
      };
    }
  } else {
    for (const row of await query(
      'SELECT COLUMN_NAME AS col, HISTOGRAM AS h FROM information_schema.COLUMN_STATISTICS WHERE SCHEMA_NAME = ? AND TABLE_NAME = ?',
      [database, table],
    )) {
      const column = String(row.col).toLowerCase();
      if (!wanted.has(column)) continue;
      const histogram = (typeof row.h === 'string' ? JSON.parse(row.h) : row.h) as {
        buckets?: unknown[][];
        'histogram-type'?: string;
        'sampling-rate'?: number;
      };
      const buckets = histogram.buckets ?? [];
      const type = histogram['histogram-type'] ?? 'unknown';
      const rate = Number(histogram['sampling-rate'] ?? 1);
      const distinct =
        type === 'singleton'
          ? buckets.length
          : buckets.reduce((sum, bucket) => sum + Number(bucket[3] ?? 0), 0);
      if (!(distinct > 0)) continue;
      found[`column:${column}`] = {
        distinct,
        basis: {
          source: 'histogram',
          confidence: type === 'singleton' && rate >= 1 ? 'exact' : 'estimate',
          rows: tableRows,
          detail: `${type} histogram, sampling rate ${Math.round(rate * 1000) / 10}%`,
        },
      };
    }
  }

  // Index cardinality: an index whose first key part is the column (or, on MySQL 8, the expression).
  const expressionColumn = server.flavor === 'mariadb' ? 'NULL' : 'EXPRESSION';
  for (const row of await query(
    `SELECT INDEX_NAME AS idx, COLUMN_NAME AS col, ${expressionColumn} AS expr, CARDINALITY AS n
       FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND SEQ_IN_INDEX = 1 AND SUB_PART IS NULL`,
    [database, table],
  )) {
    const cardinality = Number(row.n);
    // 0 or 1 on a table with rows is what a table never analyzed reports: no statistics.
    if (!(cardinality > 1)) continue;
    const basis = (what: string): DistinctBasis => ({
      source: 'index-cardinality',
      confidence: 'estimate',
      rows: tableRows,
      detail: `cardinality of index ${String(row.idx)} on ${what} (InnoDB samples a few pages)`,
    });
    if (row.col !== null && wanted.has(String(row.col).toLowerCase())) {
      const key = `column:${String(row.col).toLowerCase()}`;
      if (!found[key]) found[key] = { distinct: cardinality, basis: basis(String(row.col)) };
    } else if (row.expr !== null && row.expr !== undefined) {
      const expression = expressions.find(
        (candidate) => canonical(candidate.sql) === canonical(String(row.expr)),
      );
      const key = expression ? `expression:${expression.key}` : null;
      if (key && !found[key]) found[key] = { distinct: cardinality, basis: basis(expression!.sql) };
    }
  }
  return found;
}

/** How far a sample's distinct count can be trusted for the whole table. */
export function sampleConfidence(
  distinct: number,
  sampled: number,
  tableRows: number | null,
): DistinctBasis['confidence'] {
  if (tableRows !== null && sampled >= tableRows) return 'exact';
  if (sampled === 0) return 'low';
  const share = distinct / sampled;
  // Each value seen many times: unseen values are unlikely. Nearly all distinct: the count is a floor.
  return share < 0.01 ? 'high' : share < 0.3 ? 'medium' : 'low';
}

/**
 * Distinct counts the statistics know for every column of `tables` (histograms, index cardinality), keyed
 * `table.column` in lower case, for the index design's selectivity order. Never throws.
 */
export async function tableDistinctCounts(
  connection: Connection,
  server: ServerInfo,
  database: string,
  schema: SchemaModel,
  tables: readonly string[],
): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  for (const name of new Set(tables.map((table) => table.toLowerCase()))) {
    const info = findTable(schema, name, database);
    if (!info) continue;
    const counts = await serverDistinctCounts(
      connection,
      server,
      database,
      info.name,
      info.columns.map((column) => column.name),
      [],
      info.rowsEstimate,
    ).catch(() => ({}) as Record<string, ServerDistinct>);
    for (const [key, value] of Object.entries(counts))
      result.set(`${info.name.toLowerCase()}.${key.replace(/^column:/, '')}`, value.distinct);
  }
  return result;
}
