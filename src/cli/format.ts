// Output of the CLI commands: an analysis report as text, a slow-log digest as text or as its JSON contract.
// Shared by `analyze`, `digest` and `capture` (which prints a slow-log window as a digest).

import type { AnalysisReport, StatementError, StatementReport } from '../core/model/report.js';
import type { SchemaLoadSummary } from '../core/schema/ddl-load.js';
import type { DigestClass, MetricSummary } from '../core/slowlog/index.js';
import type { SlowLogFileResult } from '../main/services/slowlog-file.js';

/** `schema: loaded 16 tables, 4 views; skipped 1` */
export function schemaLoadLine(load: SchemaLoadSummary): string {
  const loaded = [
    `${load.tables} table${load.tables === 1 ? '' : 's'}`,
    ...(load.views > 0 ? [`${load.views} view${load.views === 1 ? '' : 's'}`] : []),
    ...(load.sequences > 0 ? [`${load.sequences} sequence${load.sequences === 1 ? '' : 's'}`] : []),
  ];
  return `schema: loaded ${loaded.join(', ')}; skipped ${load.skipped.length}${load.partial.length > 0 ? `; ${load.partial.length} partly loaded` : ''}`;
}

/** `file:line:column severity RULE message` lines plus suggestions, like a compiler. */
export function formatReportText(report: AnalysisReport, name: string): string {
  const lines: string[] = [];
  let findings = 0;
  for (const statement of report.statements) {
    findings += statement.findings.length;
    lines.push(...statementTextLines(statement, name));
  }
  for (const error of report.errors) lines.push(errorTextLine(error, name));
  lines.push(
    ...reportTailLines(report, {
      statements: report.statements.length,
      findings,
      errors: report.errors.length,
    }),
  );
  return `${lines.join('\n')}\n`;
}

/** The text lines of one statement: its notes, then each finding with its suggestions. */
export function statementTextLines(statement: StatementReport, name: string): string[] {
  const lines: string[] = [];
  for (const note of statement.notes ?? [])
    lines.push(`${name}:${statement.line}:${statement.column}: note ${note}`);
  for (const finding of statement.findings) {
    lines.push(
      `${name}:${finding.line}:${finding.column}: ${finding.severity} ${finding.rule} ${finding.message}`,
    );
    lines.push(`    ${finding.expression}${finding.table ? `  (table ${finding.table})` : ''}`);
    for (const note of finding.notes ?? []) lines.push(`    note: ${note}`);
    for (const suggestion of finding.suggestions) {
      lines.push(
        `    fix (${suggestion.kind}${suggestion.equivalent ? ', equivalent' : ', not equivalent'}):`,
      );
      for (const ddl of suggestion.ddl) lines.push(`      ${ddl}`);
      if (suggestion.rewrittenSql) lines.push(`      ${suggestion.rewrittenSql}`);
      for (const note of suggestion.notes) lines.push(`      - ${note}`);
    }
  }
  return lines;
}

export function errorTextLine(error: StatementError, name: string): string {
  return `${name}:${error.line}:${error.column}: error ${error.message}`;
}

/** The schema loader's lines and the summary line that end the text report. */
export function reportTailLines(
  report: Pick<AnalysisReport, 'server' | 'schemaLoad'>,
  counts: { statements: number; findings: number; errors: number },
): string[] {
  const lines: string[] = [];
  const load = report.schemaLoad;
  if (load) {
    for (const entry of load.skipped)
      lines.push(
        `${entry.source ?? 'schema'}:${entry.line}:${entry.column}: skipped ${entry.statement}: ${entry.reason}`,
      );
    for (const entry of load.partial)
      lines.push(
        `${entry.source ?? 'schema'}:${entry.line}:${entry.column}: partly loaded ${entry.statement}: ${entry.reason}`,
      );
    lines.push(schemaLoadLine(load));
  }
  const target = `${report.server.flavor} ${report.server.version} (${report.server.source})`;
  lines.push(
    `${counts.statements + counts.errors} statement(s), ${counts.findings} finding(s), ${counts.errors} parse error(s); target ${target}`,
  );
  return lines;
}

const round = (n: number, digits: number): number => Number(n.toFixed(digits));

function metricJson(metric: MetricSummary | undefined, seconds: boolean) {
  if (!metric) return null;
  const r = (n: number): number => (seconds ? round(n, 6) : round(n, 2));
  return {
    sum: r(metric.sum),
    min: r(metric.min),
    max: r(metric.max),
    avg: r(metric.avg),
    median: r(metric.median),
    p95: r(metric.p95),
  };
}

/**
 * The stable JSON contract of `sargable digest --format json` (issue: Slow query capture, CLI):
 * `{ source, events, classes: [{ checksum, fingerprint, count, queryTime, lockTime, rowsSent,
 * rowsExamined, firstSeen, lastSeen, schemas, example }], skipped: [{ line, reason }] }`.
 * Metrics are `{ sum, min, max, avg, p95, median }` (null when the log has no such field);
 * `example` is the full text of the slowest query of the class. Fields beyond the contract
 * (`users`, `hosts`, `exampleQueryTime`, `queryTimeHistogram`, `execution`, `global`, `flags`,
 * `metrics` with --all-attributes, `file` and
 * `offset` of a skip…)
 * are extras that may grow.
 */
export function digestToJson(result: SlowLogFileResult, extras: { metrics?: boolean } = {}) {
  const g = result.global;
  return {
    source: result.source,
    events: g.events,
    classes: result.classes.map((c) => classToJson(c, extras)),
    skipped: result.skipped.map((s) => ({
      line: s.line,
      reason: s.reason,
      ...(s.file === undefined ? {} : { file: s.file }),
      offset: s.offset,
    })),
    skippedTotal: result.skippedTotal,
    global: {
      queryCount: g.queryCount,
      uniqueQueryCount: g.uniqueQueryCount,
      queryTime: metricJson(g.queryTime, true),
      lockTime: metricJson(g.lockTime, true),
      rowsSent: metricJson(g.rowsSent, false),
      rowsExamined: metricJson(g.rowsExamined, false),
      firstSeen: g.firstSeen ?? null,
      lastSeen: g.lastSeen ?? null,
    },
  };
}

/** One class of {@link digestToJson}. */
function classToJson(c: DigestClass, extras: { metrics?: boolean }) {
  return {
    checksum: c.checksum,
    fingerprint: c.fingerprint,
    count: c.queryCount,
    queryTime: metricJson(c.queryTime, true),
    lockTime: metricJson(c.lockTime, true),
    rowsSent: metricJson(c.rowsSent, false),
    rowsExamined: metricJson(c.rowsExamined, false),
    rowsAffected: metricJson(c.rowsAffected, false),
    queryTimeHistogram: c.queryTimeHistogram ?? null,
    firstSeen: c.firstSeen ?? null,
    lastSeen: c.lastSeen ?? null,
    schemas: c.schemas,
    example: c.example.sql,
    exampleQueryTime: c.example.queryTime ?? null,
    exampleSeen: c.example.ts ?? null,
    exampleSchema: c.example.schema ?? null,
    exampleLine: c.example.line,
    users: c.users,
    hosts: c.hosts,
    execution: c.execution,
    flags: c.flags,
    ...(extras.metrics ? { metrics: c.metrics } : {}),
    ranked: c.ranked,
  };
}

/** Text written per `write` call by {@link writeDigestJson} (about). */
const JSON_WRITE_BYTES = 1 << 20;

/**
 * Writes `JSON.stringify(digestToJson(result, extras), null, 2)` and a newline, byte for byte,
 * through `write`. With a lazy result (`eachClass`, see DigestReportOptions.lazy) the classes
 * are turned into JSON one at a time, so 100,000 classes never exist as objects (or as one
 * string) at once: each class is stringified alone and indented to its depth in the document,
 * which is what JSON.stringify's indentation is (strings hold no raw newline). `drained` is
 * awaited after each piece, so a slow reader of a pipe holds the writer back instead of every
 * piece being buffered.
 */
export async function writeDigestJson(
  result: SlowLogFileResult,
  extras: { metrics?: boolean },
  write: (text: string) => void,
  drained: () => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  const document = JSON.stringify(digestToJson(result, extras), null, 2);
  const each = result.eachClass;
  const marker = '\n  "classes": []';
  const at = document.indexOf(marker);
  if (each === undefined || at < 0) {
    write(`${document}\n`);
    return;
  }
  let pending = `${document.slice(0, at)}\n  "classes": [`;
  let first = true;
  for (const c of each()) {
    const json = JSON.stringify(classToJson(c, extras), null, 2).replaceAll('\n', '\n    ');
    pending += `${first ? '' : ','}\n    ${json}`;
    first = false;
    if (pending.length >= JSON_WRITE_BYTES) {
      write(pending);
      pending = '';
      await drained();
    }
  }
  write(`${pending}${first ? ']' : '\n  ]'}${document.slice(at + marker.length)}\n`);
}

/** A pt-query-digest-like profile table. */
export function formatDigestText(result: SlowLogFileResult): string {
  const g = result.global;
  const total = g.queryTime?.sum ?? 0;
  const lines: string[] = [];
  const files = result.source.files.map((f) => f.path).join(', ');
  lines.push(
    `# ${files}: ${result.source.bytesRead} bytes, ${g.events} events, ${g.uniqueQueryCount} classes, Query_time total ${total.toFixed(6)} s`,
  );
  if (g.firstSeen) lines.push(`# From ${g.firstSeen} to ${g.lastSeen}`);
  lines.push('');
  lines.push(
    `${'Rank'.padStart(4)}  ${'Time (s)'.padStart(12)}  ${'%'.padStart(5)}  ${'Calls'.padStart(7)}  ${'Avg (s)'.padStart(9)}  ${'p95 (s)'.padStart(9)}  ${'Checksum'.padEnd(34)}  Fingerprint`,
  );
  result.classes.forEach((c, i) => {
    const sum = c.queryTime?.sum ?? 0;
    const fp = c.fingerprint.length > 100 ? `${c.fingerprint.slice(0, 97)}...` : c.fingerprint;
    lines.push(
      `${String(i + 1).padStart(4)}  ${sum.toFixed(6).padStart(12)}  ${(total > 0 ? (sum / total) * 100 : 0).toFixed(1).padStart(5)}  ${String(c.queryCount).padStart(7)}  ${(c.queryTime?.avg ?? 0).toFixed(6).padStart(9)}  ${(c.queryTime?.p95 ?? 0).toFixed(6).padStart(9)}  0x${c.checksum}  ${fp}`,
    );
  });
  if (result.skippedTotal > 0) {
    lines.push('');
    lines.push(`# ${result.skippedTotal} record(s) skipped:`);
    for (const s of result.skipped.slice(0, 10)) lines.push(`#   ${s.file ?? ''}:${s.line}: ${s.reason}`);
  }
  return `${lines.join('\n')}\n`;
}
