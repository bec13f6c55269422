// Human-readable output of an analysis report (the default --format text).

import type { AnalysisReport } from '../core/model/report.js';
import type { SchemaLoadSummary } from '../core/schema/ddl-load.js';

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
    for (const note of statement.notes ?? [])
      lines.push(`${name}:${statement.line}:${statement.column}: note ${note}`);
    for (const finding of statement.findings) {
      findings++;
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
  }
  for (const error of report.errors)
    lines.push(`${name}:${error.line}:${error.column}: error ${error.message}`);
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
    `${report.statements.length + report.errors.length} statement(s), ${findings} finding(s), ${report.errors.length} parse error(s); target ${target}`,
  );
  return `${lines.join('\n')}\n`;
}
