// The statement corpus (tests/fixtures/corpus): loading, classes, and the two verdicts compared —
// the real server's (PREPARE: parsed, never executed) and ours (a syntax error in analyze()).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Connection } from 'mysql2/promise';
import { analyze } from '../../src/core/analyze.js';
import { offlineServerInfo } from '../../src/core/sqlmode/modes.js';
import { splitStatements } from '../../src/core/sql/split.js';

const DIR = path.resolve(__dirname, '../fixtures/corpus');

export interface CorpusStatement {
  source: string;
  sql: string;
}

/** Every statement of the corpus with where it came from (`mariadb-kb:PAGE`, `OWNER/REPO@COMMIT:PATH`, …). */
export function loadCorpus(): CorpusStatement[] {
  const kb = JSON.parse(readFileSync(path.join(DIR, 'mariadb-kb.json'), 'utf8')) as {
    groups: { source: string; statements: string[] }[];
  };
  const statements: CorpusStatement[] = kb.groups.flatMap((group) =>
    group.statements.map((sql) => ({ source: `mariadb-kb:${group.source}`, sql })),
  );
  const peers = JSON.parse(readFileSync(path.join(DIR, 'peer-tests.json'), 'utf8')) as {
    groups: { source: string; statements: string[] }[];
  };
  for (const group of peers.groups)
    for (const sql of group.statements) statements.push({ source: group.source, sql });
  // The MySQL Reference Manual's examples, less those already taken from the sources above.
  const seen = new Set(statements.map((statement) => normalised(statement.sql)));
  const manual = JSON.parse(readFileSync(path.join(DIR, 'mysql-manual.json'), 'utf8')) as {
    groups: { source: string; statements: string[] }[];
  };
  for (const group of manual.groups)
    for (const sql of group.statements) {
      const key = normalised(sql);
      if (seen.has(key)) continue;
      seen.add(key);
      statements.push({ source: `mysql-manual:${group.source}`, sql });
    }
  for (const slice of splitStatements(readFileSync(path.join(DIR, 'known-misses.sql'), 'utf8')))
    statements.push({ source: 'known-misses.sql', sql: slice.sql });
  return statements;
}

const DML = new Set(['SELECT', 'WITH', 'INSERT', 'UPDATE', 'DELETE', 'REPLACE', 'TABLE', 'VALUES', '(']);

/** `dml` (SELECT/WITH/INSERT/UPDATE/DELETE/REPLACE, TABLE/VALUES) or `other`, and the first keyword. */
export function statementClass(sql: string): { group: 'dml' | 'other'; keyword: string } {
  const keyword = (/^\s*(\(|[A-Za-z_]+)/.exec(sql)?.[1] ?? '?').toUpperCase();
  return { group: DML.has(keyword) ? 'dml' : 'other', keyword };
}

/**
 * The server's parser verdict: PREPARE parses the statement without running it. ERROR 1064/1149
 * (syntax) = invalid; success or any other error (unknown table, not preparable, …) = the parser
 * accepted it. One round trip: the text is sent as an escaped literal, and the next PREPARE of the
 * same name replaces the statement (no DEALLOCATE). Calls may be issued without awaiting each: the
 * connection runs them in order while the caller analyses the next statements.
 */
export async function serverAccepts(connection: Connection, sql: string): Promise<boolean> {
  try {
    await connection.query('PREPARE sargable_corpus_statement FROM ?', [sql]);
    return true;
  } catch (error) {
    const errno = (error as { errno?: number }).errno;
    return errno !== 1064 && errno !== 1149;
  }
}

/** Our verdict: true when analyze() reports a syntax error for the statement. */
export function weSaySyntaxError(sql: string, flavor: 'mysql' | 'mariadb'): boolean {
  return ourVerdict(sql, flavor).syntaxError;
}

/**
 * What analyze() made of the statement: a syntax error, or analysed with or without PRS001 ("not
 * fully analysed"); `setAside` when PRS001 says the statement was checked without a construct.
 */
export function ourVerdict(
  sql: string,
  flavor: 'mysql' | 'mariadb',
): { syntaxError: boolean; notFullyAnalysed: boolean; setAside: boolean } {
  const server = offlineServerInfo(flavor, flavor === 'mariadb' ? '10.11.0' : '8.0.33');
  // A stored program body holds `;`: submitted as one statement only under DELIMITER, as a client would.
  const text = splitStatements(sql).length > 1 ? `DELIMITER $$\n${sql}$$\nDELIMITER ;` : sql;
  const report = analyze(text, { server, source: 'default' });
  const partial = report.statements
    .flatMap((statement) => statement.findings)
    .filter((finding) => finding.rule === 'PRS001');
  return {
    syntaxError: report.errors.some((error) => error.code === undefined),
    notFullyAnalysed: partial.length > 0,
    setAside: partial.some((finding) => finding.message.includes('checked without')),
  };
}

const normalised = (sql: string) => sql.replace(/\s+/g, ' ').toLowerCase();

/** The origin a statement's source belongs to: `mariadb-kb`, `known-misses.sql`, or the repository. */
export function sourceOrigin(source: string): string {
  if (source.startsWith('mariadb-kb:')) return 'mariadb-kb';
  if (source.startsWith('mysql-manual:')) return 'mysql-manual';
  return source.split('@')[0]!.split(':')[0]!;
}
