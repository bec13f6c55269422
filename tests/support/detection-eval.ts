// The labelled detection cases (tests/fixtures/evaluation/detection-cases.yml): loading, the server's
// verdicts (validity, and the label of sql_mode cases), and recall / false positives per family.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Connection } from 'mysql2/promise';
import { parse } from 'yaml';
import { analyze } from '../../src/core/analyze.js';
import type { Finding } from '../../src/core/model/report.js';
import type { SchemaModel } from '../../src/core/model/schema.js';
import type { ServerInfo } from '../../src/core/model/server-info.js';
import { optInRules } from '../../src/core/rules/index.js';
import { splitStatements } from '../../src/core/sql/split.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');

export interface DetectionCase {
  family: string;
  schema: string;
  source: string;
  peer: string;
  sql: string;
  /** true / false: the family's rules must / must not report it; 'server': labelled by the server. */
  expect: boolean | 'server';
  /** The label on one flavor where the servers behave differently. */
  expectOn?: Partial<Record<'mysql' | 'mariadb', boolean>>;
  basis?: string;
  note?: string;
}

export interface DetectionSchema {
  source: string;
  ddl?: string;
  /** A schema file of tests/fixtures (only `sakila`). */
  file?: 'sakila';
}

export interface DetectionFamily {
  rules: string[];
  /** Only findings of these severities count (default: all). */
  severities?: string[];
}

export interface DetectionFixture {
  families: Record<string, DetectionFamily>;
  schemas: Record<string, DetectionSchema>;
  cases: DetectionCase[];
}

export function loadDetectionCases(): DetectionFixture {
  const text = readFileSync(path.join(FIXTURES, 'evaluation/detection-cases.yml'), 'utf8');
  const fixture = parse(text, { uniqueKeys: true }) as DetectionFixture;
  for (const entry of fixture.cases) {
    if (entry.expectOn && entry.expect === 'server')
      throw new Error(`expectOn with expect: server: ${entry.sql}`);
    if (!fixture.families[entry.family]) throw new Error(`unknown family ${entry.family}: ${entry.sql}`);
    if (!fixture.schemas[entry.schema]) throw new Error(`unknown schema ${entry.schema}: ${entry.sql}`);
    if (entry.expect !== true && entry.expect !== false && entry.expect !== 'server')
      throw new Error(`expect must be true, false or server: ${entry.sql}`);
  }
  return fixture;
}

/** The statements of a schema group (Sakila: its schema file, less USE / CREATE SCHEMA). */
export function schemaStatements(schema: DetectionSchema): string[] {
  const text =
    schema.file === 'sakila'
      ? readFileSync(path.join(FIXTURES, 'sakila/sakila-schema.sql'), 'utf8')
      : (schema.ddl ?? '');
  return splitStatements(text)
    .map((slice) => slice.sql.replace(/\bsakila\./g, ''))
    .filter((sql) => !/^(DROP|CREATE)\s+SCHEMA\b|^USE\s/i.test(sql));
}

/** Loads a group's tables; a statement the server refuses is skipped (its cases then drop out). */
export async function loadSchemaGroup(db: Connection, schema: DetectionSchema): Promise<string[]> {
  const refused: string[] = [];
  for (const sql of schemaStatements(schema))
    try {
      await db.query(sql);
    } catch (error) {
      refused.push(`${(error as { code?: string }).code ?? 'error'}: ${sql.slice(0, 80)}`);
    }
  return refused;
}

/** Errors that are a sql_mode pitfall (a value, DEFAULT or GROUP BY the server refuses): the positive label. */
export const SQL_MODE_ERRORS = new Set([
  1048, // column cannot be null
  1067, // invalid default value
  1101, // BLOB/TEXT can't have a default
  1264, // out of range
  1292, // incorrect date/datetime value
  1364, // field doesn't have a default value
  1365, // division by 0
  1366, // incorrect integer value
  1406, // data too long
  1055, // not in GROUP BY (ONLY_FULL_GROUP_BY)
]);

export type ServerVerdict = { valid: false; error: string } | { valid: true; refusedWith?: number };

function errorOf(error: unknown): { errno: number; text: string } {
  const failure = error as { errno?: number; code?: string; message?: string };
  return { errno: failure.errno ?? 0, text: `${failure.code ?? 'error'} ${failure.message ?? ''}`.trim() };
}

/**
 * The server's verdict on a case. Ordinary cases: PREPARE (parsed and resolved, never run) must
 * succeed. `server` cases run for real under the server's default sql_mode, DML inside a transaction
 * that is rolled back (the caller gives DDL a throwaway database), SELECTs only prepared: a sql_mode error is the positive
 * label, success the negative one, any other error makes the statement no case.
 */
export async function serverVerdict(db: Connection, entry: DetectionCase): Promise<ServerVerdict> {
  if (entry.expect !== 'server') {
    try {
      await db.query('PREPARE sargable_detection_case FROM ?', [entry.sql]);
      await db.query('DEALLOCATE PREPARE sargable_detection_case');
      return { valid: true };
    } catch (error) {
      return { valid: false, error: errorOf(error).text };
    }
  }
  const dml = /^\s*(INSERT|REPLACE|UPDATE|DELETE)\b/i.test(entry.sql);
  // A SELECT's sql_mode error (ONLY_FULL_GROUP_BY) is raised by PREPARE: nothing needs to run.
  const select = /^\s*(SELECT|WITH|\()/i.test(entry.sql);
  try {
    if (select) {
      await db.query('PREPARE sargable_detection_case FROM ?', [entry.sql]);
      await db.query('DEALLOCATE PREPARE sargable_detection_case');
      return { valid: true };
    }
    if (dml) await db.query('START TRANSACTION');
    await db.query(entry.sql);
    return { valid: true };
  } catch (error) {
    const { errno, text } = errorOf(error);
    return SQL_MODE_ERRORS.has(errno) ? { valid: true, refusedWith: errno } : { valid: false, error: text };
  } finally {
    if (dml) await db.query('ROLLBACK');
  }
}

/** The findings analyze() reports for a statement (every rule, the opt-in ones too). */
export function reportedFindings(
  sql: string,
  server: ServerInfo,
  schema: SchemaModel | undefined,
): Finding[] {
  const report = analyze(sql, {
    server,
    source: 'dsn',
    schema,
    enabledRules: optInRules.map((rule) => rule.id),
  });
  return report.statements.flatMap((statement) => statement.findings);
}

/** True when one of the findings is the family's (its rules, at its severities). */
export function familyReports(family: DetectionFamily, findings: readonly Finding[]): boolean {
  return findings.some(
    (finding) =>
      family.rules.includes(finding.rule) &&
      (!family.severities || family.severities.includes(finding.severity)),
  );
}

/** The case's label on a server: the server's verdict for `server` cases, else `expectOn`, else `expect`. */
export function labelOn(entry: DetectionCase, flavor: 'mysql' | 'mariadb', verdict: ServerVerdict): boolean {
  if (entry.expect === 'server') return verdict.valid && verdict.refusedWith !== undefined;
  return entry.expectOn?.[flavor] ?? entry.expect;
}

export interface FamilyScore {
  positives: number;
  found: number;
  negatives: number;
  falsePositives: number;
  invalid: number;
  misses: string[];
  falseAlarms: string[];
}

export function emptyScore(): FamilyScore {
  return { positives: 0, found: 0, negatives: 0, falsePositives: 0, invalid: 0, misses: [], falseAlarms: [] };
}

/** One line per family: `family  found/positives  FP falsePositives/negatives  (invalid n)`. */
export function scoreTable(scores: Record<string, FamilyScore>): string {
  return Object.entries(scores)
    .map(
      ([family, score]) =>
        `${family.padEnd(24)} recall ${score.found}/${score.positives}`.padEnd(44) +
        `FP ${score.falsePositives}/${score.negatives}`.padEnd(12) +
        (score.invalid ? ` (not a case on this server: ${score.invalid})` : ''),
    )
    .join('\n');
}
