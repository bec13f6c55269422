// A SQL file analysed where it lies (the UI's "Analyse SQL file…": a dump, a query log, up to gigabytes):
// read by main as a stream, split statement by statement, each statement analysed as analyze.run would
// (schema, target and rules of the session), with progress and cancel, in bounded memory.
/*
 * Design note.
 * - The file reaches this service only as a file the user chose (a dialog or upload grant, or a path
 *   under --allow-dir: FileGrants.resolve in the handler), never as a path the page names.
 * - Bytes are decoded as the CLI decodes them (text-input.ts: UTF-8, UTF-16 with a BOM; anything else
 *   refused with the offset); a file whose first 8 KiB hold a NUL byte, or that starts with a gzip,
 *   zip, bzip2, xz or zstd signature, is refused as not text before anything is analysed.
 * - core/sql/split-stream.ts yields each statement with the offset, line and column the whole text
 *   would give; statementAnalyzer (the same per-statement analysis as analyze()) analyses it, so the
 *   findings are those of the file analysed in one piece.
 * - Memory: only the statement being read, the findings kept for the reply (the first
 *   MAX_FINDINGS_PER_RULE per rule, MAX_FILE_ERRORS errors; every count exact) and, per kept statement,
 *   where its text is: the text of a statement with a kept finding or error goes to a private spill
 *   file (0600 in a 0700 temp folder), read back by sqlFile.statement, removed when the analysis is
 *   forgotten (SqlFileAnalyses keeps the newest MAX_ANALYSES) or the process exits.
 * - The analysis is synchronous CPU work in main: it yields to the event loop every YIELD_MS, so IPC,
 *   progress events and a cancel are served while it runs. Progress (bytes, statements, findings,
 *   errors) is monotonic; bytes are estimated inside a chunk from the analysed statement's offset.
 * - A cancel stops at the next statement and the job still ends with what was read (`complete: false`).
 */

import { randomUUID } from 'node:crypto';
import { closeSync, createReadStream, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { StatementOutcome } from '../../core/analyze.js';
import type { AnalysisReport } from '../../core/model/report.js';
import { severities } from '../../core/model/report.js';
import { StatementStream } from '../../core/sql/split-stream.js';
import type { StatementSlice } from '../../core/sql/split.js';
import {
  EXCERPT_CHARS,
  MAX_FILE_ERRORS,
  MAX_FINDINGS_PER_RULE,
  MAX_OPEN_STATEMENT_BYTES,
  type SqlFileError,
  type SqlFileReply,
  type SqlFileRuleGroup,
  type SqlFileStatement,
} from '../../shared/api/sql-file.js';
import { AdvisorError } from '../../shared/errors.js';
import type { ResolvedFile } from './file-grants.js';
import { InputDecoder } from './text-input.js';

/** Bytes read at a time. */
const CHUNK_BYTES = 256 * 1024;
/** The analysis gives the event loop a turn at least this often. */
const YIELD_MS = 40;
/** Analyses whose statements stay available to sqlFile.statement. */
export const MAX_ANALYSES = 4;

export interface SqlFileProgress {
  bytesRead: number;
  totalBytes: number;
  statements: number;
  findings: number;
  errors: number;
}

/** The per-statement analysis to run (analysis.ts: offlineStatementAnalysis / liveStatementAnalysis). */
export interface FileStatementAnalysis {
  server: AnalysisReport['server'];
  analyzeSlice: (slice: StatementSlice, index: number) => StatementOutcome;
}

export interface SqlSourceOptions {
  /** The input's name in messages. */
  name: string;
  totalBytes?: number;
  signal?: AbortSignal;
  onProgress?: (progress: SqlFileProgress) => void;
  /** Where statements with kept findings go (absent: excerpts only). */
  spill?: StatementSpill;
}

export type SqlFileResult = Omit<SqlFileReply, 'analysisId'>;

/** Analyse a chosen SQL file as a stream (see the module note). */
export async function analyzeSqlFile(
  file: ResolvedFile,
  analysis: FileStatementAnalysis,
  options: Omit<SqlSourceOptions, 'name' | 'totalBytes'> = {},
): Promise<SqlFileResult> {
  let size: number;
  try {
    const info = await stat(file.path);
    if (info.isDirectory())
      throw new AdvisorError('INVALID_INPUT', `${file.name} is a folder: choose a SQL file.`);
    size = info.size;
  } catch (error) {
    if (error instanceof AdvisorError) throw error;
    throw readError(file, error);
  }
  const chunks = createReadStream(file.path, { highWaterMark: CHUNK_BYTES });
  try {
    return await analyzeSqlSource(chunks as AsyncIterable<Buffer>, analysis, {
      ...options,
      name: file.name,
      totalBytes: size,
    });
  } catch (error) {
    if (error instanceof AdvisorError) throw error;
    throw readError(file, error);
  } finally {
    chunks.destroy();
  }
}

/** Analyse one source's bytes statement by statement (the file's chunks; tests feed their own). */
export async function analyzeSqlSource(
  chunks: AsyncIterable<Uint8Array>,
  analysis: FileStatementAnalysis,
  options: SqlSourceOptions,
): Promise<SqlFileResult> {
  const started = Date.now();
  const decoder = new InputDecoder(`${options.name}`);
  const splitter = new StatementStream();
  const groups = new Map<string, SqlFileRuleGroup>();
  const errors: SqlFileError[] = [];
  let statements = 0;
  let findings = 0;
  let errorCount = 0;
  let index = 0;
  let cancelled = false;
  let lastYield = Date.now();
  let lastProgress = 0;
  // Where the chunk being analysed lies, in bytes and in characters (for the byte estimate).
  let chunkBytesStart = 0;
  let chunkBytesEnd = 0;
  let chunkCharsStart = 0;
  let chunkChars = 0;
  let bytesShown = 0;
  let sniffed = false;

  const progress = (force: boolean) => {
    const now = Date.now();
    if (!force && now - lastProgress < 100) return;
    lastProgress = now;
    options.onProgress?.({
      bytesRead: bytesShown,
      totalBytes: Math.max(options.totalBytes ?? 0, bytesShown),
      statements,
      findings,
      errors: errorCount,
    });
  };
  const advance = (slice: StatementSlice | null) => {
    let at = chunkBytesEnd;
    if (slice && chunkChars > 0) {
      const share = Math.min(
        1,
        Math.max(0, (slice.offset + slice.sql.length - chunkCharsStart) / chunkChars),
      );
      at = chunkBytesStart + Math.round((chunkBytesEnd - chunkBytesStart) * share);
    }
    bytesShown = Math.max(bytesShown, at);
  };

  const analyse = async (slices: StatementSlice[]): Promise<void> => {
    for (const slice of slices) {
      if (options.signal?.aborted) {
        cancelled = true;
        return;
      }
      const outcome = analysis.analyzeSlice(slice, index);
      let kept = false;
      if ('error' in outcome) {
        errorCount++;
        if (errors.length < MAX_FILE_ERRORS) {
          const { error } = outcome;
          errors.push({
            statement: index,
            line: error.line,
            column: error.column,
            ...(error.code ? { code: error.code } : {}),
            message: error.message,
            excerpt: excerpt(slice.sql),
          });
          kept = true;
        }
      } else {
        statements++;
        for (const finding of outcome.statement.findings) {
          findings++;
          let group = groups.get(finding.rule);
          if (!group) {
            group = {
              rule: finding.rule,
              category: finding.category,
              severity: finding.severity,
              count: 0,
              findings: [],
            };
            groups.set(finding.rule, group);
          }
          group.count++;
          if (severities.indexOf(finding.severity) > severities.indexOf(group.severity))
            group.severity = finding.severity;
          if (group.findings.length < MAX_FINDINGS_PER_RULE) {
            group.findings.push({
              rule: finding.rule,
              severity: finding.severity,
              message: finding.message,
              line: finding.line,
              column: finding.column,
              table: finding.table,
              statement: index,
              statementLine: slice.line,
              statementColumn: slice.column,
              statementOffset: slice.offset,
              excerpt: excerpt(slice.sql),
            });
            kept = true;
          }
        }
      }
      if (kept) options.spill?.keep(index, slice);
      index++;
      advance(slice);
      progress(false);
      if (Date.now() - lastYield >= YIELD_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        lastYield = Date.now();
      }
    }
  };

  try {
    for await (const chunk of chunks) {
      if (options.signal?.aborted) {
        cancelled = true;
        break;
      }
      if (!sniffed) {
        sniffed = true;
        notText(chunk, options.name);
      }
      const text = decoder.decode(chunk);
      chunkBytesStart = chunkBytesEnd;
      chunkBytesEnd = decoder.bytes;
      chunkCharsStart += chunkChars;
      chunkChars = text.length;
      await analyse(splitter.push(text));
      if (cancelled) break;
      advance(null);
      progress(false);
      // A chunk without a statement end (a long INSERT, a long comment) is still a turn for the loop.
      if (Date.now() - lastYield >= YIELD_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        lastYield = Date.now();
      }
    }
    if (!cancelled) {
      const rest = decoder.end();
      chunkCharsStart += chunkChars;
      chunkChars = rest.length;
      await analyse(splitter.push(rest));
      if (!cancelled) await analyse(splitter.end());
      if (!cancelled) advance(null);
    }
  } catch (error) {
    if (error instanceof AdvisorError) throw error;
    if (options.signal?.aborted) cancelled = true;
    else throw error;
  }
  progress(true);
  const rank = (group: SqlFileRuleGroup) => severities.indexOf(group.severity);
  return {
    name: options.name,
    totalBytes: Math.max(options.totalBytes ?? 0, bytesShown),
    bytesRead: bytesShown,
    complete: !cancelled,
    elapsedMs: Date.now() - started,
    server: analysis.server,
    statements,
    findings,
    rules: [...groups.values()].sort(
      (a, b) => rank(b) - rank(a) || b.count - a.count || a.rule.localeCompare(b.rule),
    ),
    errorCount,
    errors,
  };
}

/** The statement's first characters after its leading comments, white space collapsed, … when cut. */
export function excerpt(statement: string): string {
  const sql = withoutLeadingComments(statement) || statement;
  const head = sql
    .slice(0, EXCERPT_CHARS * 4)
    .replace(/\s+/g, ' ')
    .trim();
  return head.length > EXCERPT_CHARS || sql.length > EXCERPT_CHARS * 4
    ? `${head.slice(0, EXCERPT_CHARS).trimEnd()}…`
    : head;
}

/** The statement from its first token: a dump's notes before it (line and block comments) are left out. */
function withoutLeadingComments(sql: string): string {
  let at = 0;
  for (;;) {
    while (at < sql.length && /\s/.test(sql[at]!)) at++;
    if (sql[at] === '#' || (sql.startsWith('--', at) && /\s/.test(sql[at + 2] ?? ' '))) {
      const end = sql.indexOf('\n', at);
      if (end < 0) return '';
      at = end + 1;
    } else if (sql.startsWith('/*', at) && sql[at + 2] !== '!' && sql[at + 2] !== '+') {
      const end = sql.indexOf('*/', at + 2);
      if (end < 0) return '';
      at = end + 2;
    } else return sql.slice(at);
  }
}

const SIGNATURES: { bytes: number[]; what: string; hint: string }[] = [
  { bytes: [0x1f, 0x8b], what: 'gzip-compressed', hint: 'Decompress it first (gunzip -k FILE).' },
  {
    bytes: [0x50, 0x4b, 0x03, 0x04],
    what: 'a zip archive',
    hint: 'Extract the .sql file first (unzip FILE).',
  },
  { bytes: [0x42, 0x5a, 0x68], what: 'bzip2-compressed', hint: 'Decompress it first (bunzip2 -k FILE).' },
  {
    bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00],
    what: 'xz-compressed',
    hint: 'Decompress it first (unxz -k FILE).',
  },
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], what: 'zstd-compressed', hint: 'Decompress it first (unzstd FILE).' },
];

/** Refuse a file that is plainly not SQL text: a compressed archive, or NUL bytes in its first 8 KiB. */
function notText(head: Uint8Array, name: string): void {
  for (const signature of SIGNATURES)
    if (signature.bytes.every((byte, at) => head[at] === byte))
      throw new AdvisorError('INVALID_INPUT', `${name} is ${signature.what}, not SQL text.`, {
        hint: signature.hint,
      });
  // UTF-16 text has NUL bytes in every ASCII character: its BOM says so (text-input.ts decodes it).
  const utf16 = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
  if (utf16) return;
  const nul = head.subarray(0, 8192).indexOf(0);
  if (nul >= 0)
    throw new AdvisorError(
      'INVALID_INPUT',
      `${name} is not a text file (a NUL byte at offset ${nul}): choose a SQL file (a dump, a query log).`,
    );
}

function readError(file: ResolvedFile, error: unknown): AdvisorError {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT'
    ? new AdvisorError('NOT_FOUND', `${file.name} is gone: choose the file again.`)
    : code === 'EACCES' || code === 'EPERM'
      ? new AdvisorError('INVALID_INPUT', `${file.name} cannot be read: permission denied.`, {
          hint: 'Check the file is readable by the user running Sargable.',
        })
      : new AdvisorError('INVALID_INPUT', `Cannot read ${file.name} (${code ?? 'read error'}).`);
}

/**
 * The text of kept statements, in a private spill file (0600 in a 0700 temp folder), so a statement
 * opens in an editor tab later without holding the file's text in memory.
 */
export class StatementSpill {
  private readonly dir: string;
  private readonly fd: number;
  private size = 0;
  private readonly entries = new Map<
    number,
    { position: number; bytes: number; line: number; column: number } | { tooLarge: number; line: number }
  >();
  private closed = false;

  constructor() {
    this.dir = mkdtempSync(path.join(tmpdir(), 'sargable-sqlfile-'));
    this.fd = openSync(path.join(this.dir, 'statements'), 'w+', 0o600);
  }

  keep(index: number, slice: StatementSlice): void {
    if (this.closed || this.entries.has(index)) return;
    const bytes = Buffer.byteLength(slice.sql);
    if (bytes > MAX_OPEN_STATEMENT_BYTES) {
      this.entries.set(index, { tooLarge: bytes, line: slice.line });
      return;
    }
    writeSync(this.fd, slice.sql, this.size, 'utf8');
    this.entries.set(index, { position: this.size, bytes, line: slice.line, column: slice.column });
    this.size += bytes;
  }

  read(index: number): SqlFileStatement {
    const entry = this.entries.get(index);
    if (!entry || this.closed)
      throw new AdvisorError(
        'NOT_FOUND',
        'That statement is not kept (only statements with a listed finding or error are): analyse the file again.',
      );
    if ('tooLarge' in entry)
      throw new AdvisorError(
        'INPUT_TOO_LARGE',
        `The statement at line ${entry.line} is ${(entry.tooLarge / 1_048_576).toFixed(1)} MB, larger than the ${MAX_OPEN_STATEMENT_BYTES / 1_048_576} MB an editor tab takes.`,
        { hint: `Open the file at line ${entry.line} in a text editor, or split the statement.` },
      );
    const buffer = Buffer.alloc(entry.bytes);
    readSync(this.fd, buffer, 0, entry.bytes, entry.position);
    return { index, line: entry.line, column: entry.column, sql: buffer.toString('utf8') };
  }

  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      closeSync(this.fd);
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }
}

/** Analyses whose statements can still be opened, by id (one store per app; the newest MAX_ANALYSES). */
export class SqlFileAnalyses {
  private readonly spills = new Map<string, StatementSpill>();
  private exitHook: (() => void) | null = null;

  /** A new spill for an analysis about to run, with its id; the oldest beyond MAX_ANALYSES go. */
  open(): { analysisId: string; spill: StatementSpill } {
    const analysisId = `sqlfile:${randomUUID()}`;
    const spill = new StatementSpill();
    this.spills.set(analysisId, spill);
    while (this.spills.size > MAX_ANALYSES) {
      const [oldest, old] = this.spills.entries().next().value!;
      old.dispose();
      this.spills.delete(oldest);
    }
    if (!this.exitHook) {
      this.exitHook = () => this.disposeAll();
      process.once('exit', this.exitHook);
    }
    return { analysisId, spill };
  }

  statement(analysisId: string, index: number): SqlFileStatement {
    const spill = this.spills.get(analysisId);
    if (!spill)
      throw new AdvisorError(
        'NOT_FOUND',
        'That file analysis is no longer kept (newer analyses replaced it, or the app restarted): analyse the file again.',
      );
    return spill.read(index);
  }

  /** Forget an analysis (it failed: nothing to open). */
  drop(analysisId: string): void {
    this.spills.get(analysisId)?.dispose();
    this.spills.delete(analysisId);
  }

  disposeAll(): void {
    for (const spill of this.spills.values()) spill.dispose();
    this.spills.clear();
    if (this.exitHook) process.removeListener('exit', this.exitHook);
    this.exitHook = null;
  }
}
