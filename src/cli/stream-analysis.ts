// `sargable analyze` on a large file: read as a stream (fs.createReadStream), split statement by statement
// (core/sql/split-stream.ts), analysed and written as each statement ends, so memory is bounded by the
// longest statement, not by the file (docs/cli.md, "Large files"). The output is byte for byte what the
// whole-file path writes: the same JSON document (or text report), written progressively. `errors[]`
// comes after `statements[]` in that document, so error entries wait in a temporary file, not in memory.

import { createReadStream } from 'node:fs';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import path from 'node:path';
import type { StatementOutcome } from '../core/analyze.js';
import type { AnalysisReport, Severity } from '../core/model/report.js';
import { severities } from '../core/model/report.js';
import { StatementStream } from '../core/sql/split-stream.js';
import type { StatementSlice } from '../core/sql/split.js';
import type { SchemaLoadSummary } from '../core/schema/ddl-load.js';
import { AdvisorError } from '../shared/errors.js';
import type { OutputFormat } from './args.js';
import { errorTextLine, reportTailLines, statementTextLines } from './format.js';
import { decodeText } from './input.js';
import type { CliIo } from './io.js';

/** Files larger than this are analysed as a stream (smaller ones too with `--stream`). */
export const STREAM_THRESHOLD_BYTES = 64 * 1024 * 1024;

export interface StreamAnalysis {
  server: AnalysisReport['server'];
  schemaLoad?: SchemaLoadSummary;
  analyzeSlice: (slice: StatementSlice, index: number) => StatementOutcome;
}

/** Analyse `file` as a stream and write the report; returns the highest finding severity seen. */
export async function analyzeFileStream(
  file: string,
  size: number,
  analysis: StreamAnalysis,
  io: CliIo,
  options: {
    format: OutputFormat;
    name: string;
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
    const pct = size > 0 ? Math.min(100, (bytes / size) * 100).toFixed(1) : '100.0';
    options.progress(
      `${pct}%  ${(bytes / 1_048_576).toFixed(1)}/${(size / 1_048_576).toFixed(1)} MiB  ${(statements + errors).toLocaleString('en-US')} statements  ${findings.toLocaleString('en-US')} findings`,
      last,
    );
  };
  const emit = (slices: StatementSlice[]) => {
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
        continue;
      }
      const statement = outcome.statement;
      for (const finding of statement.findings) worst = Math.max(worst, severities.indexOf(finding.severity));
      findings += statement.findings.length;
      if (json)
        io.stdout(`${statements === 0 ? '' : ','}\n    ${indent(JSON.stringify(statement, null, 2), 4)}`);
      else {
        const lines = statementTextLines(statement, options.name);
        if (lines.length > 0) io.stdout(`${lines.join('\n')}\n`);
      }
      statements++;
    }
  };
  try {
    if (json)
      io.stdout(`{\n  "server": ${indent(JSON.stringify(analysis.server, null, 2), 2)},\n  "statements": [`);
    const splitter = new StatementStream();
    let bytes = 0;
    let decoder: TextDecoder | undefined;
    let head: Buffer | undefined;
    const stream = createReadStream(file, { highWaterMark: 1024 * 1024 });
    for await (const raw of stream) {
      let chunk = raw as Buffer;
      if (!decoder) {
        // The encoding is decided by the first bytes (a BOM), as for a file read whole.
        head = head ? Buffer.concat([head, chunk]) : chunk;
        if (head.length < 3 && bytes + chunk.length < size) {
          bytes += chunk.length;
          continue;
        }
        decoder = decoderFor(head);
        chunk = head;
        head = undefined;
        bytes = 0;
      }
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        decodeText(chunk, `SQL file ${options.name} (in the part from byte ${bytes})`);
        throw new AdvisorError('INVALID_INPUT', `SQL file ${options.name} is not UTF-8 text.`);
      }
      bytes += chunk.length;
      emit(splitter.push(text));
      progress(bytes, false);
    }
    if (head) {
      decoder = decoderFor(head);
      emit(splitter.push(decoder.decode(head, { stream: true })));
      bytes += head.length;
    }
    if (decoder) emit(splitter.push(decoder.decode()));
    emit(splitter.end());
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

function decoderFor(head: Buffer): TextDecoder {
  if (head[0] === 0xff && head[1] === 0xfe) return new TextDecoder('utf-16le');
  if (head[0] === 0xfe && head[1] === 0xff) return new TextDecoder('utf-16be');
  // fatal: a byte that is not UTF-8 is refused (decodeText gives the message), never read as U+FFFD.
  return new TextDecoder('utf-8', { fatal: true });
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
