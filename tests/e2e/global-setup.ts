// Before the e2e run: empty the statement-digest tables of the test servers. The integration suite
// runs first on the same throwaway servers and sends thousands of distinct statements (the rewrite
// property test alone ~5,000 shapes); once performance_schema's digest table is full (10,000 rows),
// new statements are summed in the NULL-digest row, and the live-digest specs (dba-day, top-queries,
// top-queries-history) would see their own workload only as "N digests lost" — a state of the test
// servers, not of the product (which reports it, as the Top queries note says). Only the test servers'
// statistics are reset; a server whose performance_schema is off, or a URL not given, is skipped.
import mysql from 'mysql2/promise';

const TABLES = [
  'performance_schema.events_statements_summary_by_digest',
  'performance_schema.events_statements_histogram_by_digest',
];

export default async function globalSetup(): Promise<void> {
  for (const variable of ['SARGABLE_TEST_MYSQL_URL', 'SARGABLE_TEST_MARIADB_URL']) {
    const url = process.env[variable];
    if (!url) continue;
    const connection = await mysql.createConnection({ uri: url }).catch(() => null);
    if (!connection) continue;
    try {
      for (const table of TABLES) await connection.query(`TRUNCATE TABLE ${table}`).catch(() => undefined);
    } finally {
      await connection.end();
    }
  }
}
