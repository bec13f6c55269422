// API area: a SQL file analysed where it lies (a dump, a query log, up to gigabytes), streamed by main
// statement by statement as a job with progress and cancel. The text never passes through the page:
// the reply carries findings with their line and a short excerpt; one statement's text is fetched on
// demand (to open it in an editor tab).

import { z } from 'zod';
import type { Category, Severity } from '../../core/model/report.js';

const flavor = z.enum(['mysql', 'mariadb', 'percona']);
const ruleIds = z
  .array(z.string().regex(/^[A-Za-z0-9.]{1,20}$/))
  .max(200)
  .optional();

const analyzeFileSchema = z.object({
  /** A file the user chose (`files.choose` grant, an upload's grant, or a path under --allow-dir). */
  ref: z.string().min(1).max(4096),
  /** Use the live server's schema and version (no selectivity samples: a file may hold millions of statements). */
  connectionId: z.string().min(1).optional(),
  /** Offline schema: a schema file loaded with schema.loadFile. */
  schemaId: z.string().min(1).max(100).optional(),
  /** Offline schema: CREATE TABLE statements. */
  schemaSql: z.string().max(5_000_000).optional(),
  /** Offline target when not connected. */
  target: z.object({ flavor, version: z.string().min(1).max(40) }).optional(),
  disabledRules: ruleIds,
  enabledRules: ruleIds,
});

const statementSchema = z.object({
  /** `analysisId` of a finished (or cancelled) sqlFile.analyze job. */
  analysisId: z.string().min(1).max(100),
  /** The statement's index in the file (0-based, as in the findings). */
  index: z.number().int().min(0),
});

export const sqlFileSchemas = {
  'sqlFile.analyze': analyzeFileSchema,
  'sqlFile.statement': statementSchema,
} as const;

/** Findings kept per rule in a reply (the per-rule count is exact; the rest are counted only). */
export const MAX_FINDINGS_PER_RULE = 500;
/** Statement errors (syntax errors, too complex) kept in a reply; the count is exact. */
export const MAX_FILE_ERRORS = 1000;
/** Characters of a statement shown as its excerpt. */
export const EXCERPT_CHARS = 160;
/** Largest statement `sqlFile.statement` returns for an editor tab. */
export const MAX_OPEN_STATEMENT_BYTES = 1024 * 1024;

/** One finding of a file: where it is, and a short excerpt of its statement (never the whole text). */
export interface SqlFileFinding {
  rule: string;
  severity: Severity;
  message: string;
  /** 1-based position of the finding in the file. */
  line: number;
  column: number;
  table: string | null;
  /** The statement: its index in the file, 1-based line and column where it starts, character offset. */
  statement: number;
  statementLine: number;
  statementColumn: number;
  statementOffset: number;
  /** The statement's first EXCERPT_CHARS characters, white space collapsed (… when cut). */
  excerpt: string;
}

/** The findings of one rule in a file. */
export interface SqlFileRuleGroup {
  rule: string;
  category: Category;
  /** The most severe of its findings. */
  severity: Severity;
  /** Every finding of the rule in the file. */
  count: number;
  /** The first MAX_FINDINGS_PER_RULE of them, in file order. */
  findings: SqlFileFinding[];
}

/** A statement the analysis could not read (syntax error, or beyond the documented limits). */
export interface SqlFileError {
  statement: number;
  line: number;
  column: number;
  code?: 'INPUT_TOO_COMPLEX';
  message: string;
  excerpt: string;
}

/** The result of a `sqlFile.analyze` job. */
export interface SqlFileReply {
  /** Pass to sqlFile.statement to open one statement. */
  analysisId: string;
  /** The file's name as chosen. */
  name: string;
  /** Size of the file, and bytes read (less when cancelled). */
  totalBytes: number;
  bytesRead: number;
  /** False when the job was cancelled: the counts are of the part read. */
  complete: boolean;
  elapsedMs: number;
  server: { flavor: string; version: string; source: string };
  statements: number;
  findings: number;
  /** By rule, most severe first, then by count. */
  rules: SqlFileRuleGroup[];
  errorCount: number;
  /** The first MAX_FILE_ERRORS errors, in file order. */
  errors: SqlFileError[];
}

/** One statement of an analysed file, for an editor tab. */
export interface SqlFileStatement {
  index: number;
  line: number;
  column: number;
  sql: string;
}

export interface SqlFileApi {
  /**
   * Analyse a SQL file the user chose, read by the service as a stream (bounded memory, any size), with
   * the schema, target and rules of an analyze.run request. A job: follow it on `job.events` (progress:
   * bytesRead/totalBytes, events = statements, findings, errors), cancel with `job.cancel` (the job then
   * ends `done` with what was read, `complete: false`); its result is a SqlFileReply.
   */
  'sqlFile.analyze'(request: z.input<typeof analyzeFileSchema>): Promise<{ jobId: string }>;
  /** The text of one statement of an analysed file that has findings or an error (NOT_FOUND otherwise). */
  'sqlFile.statement'(request: z.input<typeof statementSchema>): Promise<SqlFileStatement>;
}
