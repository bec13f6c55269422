// `sargable analyze` on a large file or standard input: read as a stream (fs.createReadStream, stdin),
// split statement by statement (core/sql/split-stream.ts), analysed and written as each statement ends,
// so memory is bounded by the longest statement, not by the input (docs/cli.md, "Large files"). With
// --dsn, the statements of each chunk read get the live post-pass (selectivity samples) before they
// are written. The output is byte for byte what the
// whole-file path writes: the same JSON document (or text report), written progressively. `errors[]`
// comes after `statements[]` in that document, so error entries wait in a temporary file, not in memory.

import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import path from 'node:path';
import type { StatementOutcome } from '../core/analyze.js';
import type { AnalysisReport, Severity, StatementReport } from '../core/model/report.js';
import { severities } from '../core/model/report.js';
import { StatementStream } from '../core/sql/split-stream.js';
import type { StatementSlice } from '../core/sql/split.js';
import type { SchemaLoadSummary } from '../core/schema/ddl-load.js';
import { InputDecoder } from '../main/services/text-input.js';
import type { OutputFormat } from './args.js';
import { errorTextLine, reportTailLines, statementTextLines } from './format.js';
import type { CliIo } from './io.js';

/** Files larger than this are analysed as a stream (smaller ones too with `--stream`). */
export const STREAM_THRESHOLD_BYTES = 64 * 1024 * 1024;

export interface StreamAnalysis {
  server: AnalysisReport['server'];
  schemaLoad?: SchemaLoadSummary;
  analyzeSlice: (slice: StatementSlice, index: number) => StatementOutcome;
  /** What a live analysis adds to the statements of a batch, in order (selectivity samples); absent offline. */
  finish?: (statements: StatementReport[]) => Promise<StatementReport[]>;
}

/**
 * Analyse an input read as a stream (`chunks`: a file's or standard input's bytes; `size` when known)
 * and write the report; returns the highest finding severity seen.
 */
export async function analyzeStream(
  chunks: AsyncIterable<Uint8Array>,
  size: number | undefined,
  analysis: StreamAnalysis,
  io: CliIo,
  options: {
    format: OutputFormat;
    /** The input's name in messages and text lines (`<stdin>` for standard input). */
    name: string;
    /** How the input is named in an encoding error (`SQL file x.sql`, `standard input`). */
    what: string;
    progress: ((line: string, last: boolean) => void) | undefined;
  },
): Promise<Severity | undefined> {
  const spill = mkdtempSync(path.join(tmpdir(), 'sargable-analyze-'));
  const errorsFile = path.join(spill, 'errors');
  const errorsFd = openSync(errorsFile, 'w+', 0o600);
  const json = options.format === 'json';
  let statements = 0;
  let errors = 0;
  let findings = 0;
  let worst = -1;
  let index = 0;
  let lastProgress = 0;
  const progress = (bytes: number, last: boolean) => {
    if (!options.progress) return;
    const now = Date.now();
    if (!last && now - lastProgress < 250) return;
    lastProgress = now;
    const counts = `${(statements + errors).toLocaleString('en-US')} statements  ${findings.toLocaleString('en-US')} findings`;
    if (size === undefined) {
      options.progress(`${(bytes / 1_048_576).toFixed(1)} MiB  ${counts}`, last);
      return;
    }
    const pct = size > 0 ? Math.min(100, (bytes / size) * 100).toFixed(1) : '100.0';
    options.progress(
      `${pct}%  ${(bytes / 1_048_576).toFixed(1)}/${(size / 1_048_576).toFixed(1)} MiB  ${counts}`,
      last,
    );
  };
  const write = (statement: StatementReport) => {
    for (const finding of statement.findings) worst = Math.max(worst, severities.indexOf(finding.severity));
    findings += statement.findings.length;
    if (json)
      io.stdout(`${statements === 0 ? '' : ','}\n    ${indent(JSON.stringify(statement, null, 2), 4)}`);
    else {
      const lines = statementTextLines(statement, options.name);
      if (lines.length > 0) io.stdout(`${lines.join('\n')}\n`);
    }
    statements++;
  };
  const emit = async (slices: StatementSlice[]) => {
    const batch: StatementReport[] = [];
    for (const slice of slices) {
      const outcome = analysis.analyzeSlice(slice, index++);
      if ('error' in outcome) {
        writeSync(
          errorsFd,
          json
            ? `${errors === 0 ? '' : ','}\n    ${indent(JSON.stringify(outcome.error, null, 2), 4)}`
            : `${errorTextLine(outcome.error, options.name)}\n`,
        );
        errors++;
      } else batch.push(outcome.statement);
    }
    if (batch.length === 0) return;
    for (const statement of analysis.finish ? await analysis.finish(batch) : batch) write(statement);
    await io.stdoutDrained?.();
  };
  try {
    if (json)
      io.stdout(`{\n  "server": ${indent(JSON.stringify(analysis.server, null, 2), 2)},\n  "statements": [`);
    const splitter = new StatementStream();
    const decoder = new InputDecoder(options.what);
    let bytes = 0;
    for await (const chunk of chunks) {
      const text = decoder.decode(chunk);
      bytes = decoder.bytes;
      await emit(splitter.push(text));
      progress(bytes, false);
    }
    await emit(splitter.push(decoder.end()));
    await emit(splitter.end());
    bytes = decoder.bytes;
    progress(bytes, true);
    if (json) {
      io.stdout(`${statements === 0 ? ']' : '\n  ]'},\n  "errors": [`);
      copyFile(errorsFd, io);
      io.stdout(errors === 0 ? ']' : '\n  ]');
      if (analysis.schemaLoad)
        io.stdout(`,\n  "schemaLoad": ${indent(JSON.stringify(analysis.schemaLoad, null, 2), 2)}`);
      io.stdout('\n}\n');
    } else {
      copyFile(errorsFd, io);
      io.stdout(`${reportTailLines(analysis, { statements, findings, errors }).join('\n')}\n`);
    }
  } finally {
    closeSync(errorsFd);
    rmSync(spill, { recursive: true, force: true });
  }
  return worst >= 0 ? severities[worst] : undefined;
}

function indent(json: string, spaces: number): string {
  return json.replace(/\n/g, `\n${' '.repeat(spaces)}`);
}

function copyFile(fd: number, io: CliIo): void {
  const buffer = Buffer.alloc(1024 * 1024);
  // A character cut at a read boundary is completed by the next read.
  const decoder = new StringDecoder('utf8');
  let position = 0;
  for (;;) {
    const read = readSync(fd, buffer, 0, buffer.length, position);
    if (read === 0) return;
    io.stdout(decoder.write(buffer.subarray(0, read)));
    position += read;
  }
}
