// Flattens an AnalysisReport into the list the Findings panel and the editor markers share.
import type { AnalysisReport, Finding, Severity, StatementError } from '../core/model/report.js';

/** One row of the Findings panel and one editor marker. */
export type ReportItem =
  | { key: string; kind: 'finding'; statementIndex: number; finding: Finding }
  | { key: string; kind: 'error'; error: StatementError };

/** Parse errors first (they hide findings in their statement), then findings in text order. */
export function reportItems(report: AnalysisReport): ReportItem[] {
  const errors: ReportItem[] = report.errors.map((error) => ({
    key: `error-${error.index}`,
    kind: 'error',
    error,
  }));
  const findings: ReportItem[] = report.statements.flatMap((statement) =>
    statement.findings.map((finding, position) => ({
      key: `finding-${statement.index}-${position}`,
      kind: 'finding' as const,
      statementIndex: statement.index,
      finding,
    })),
  );
  findings.sort((a, b) => startOf(a) - startOf(b));
  return [...errors, ...findings];
}

function startOf(item: ReportItem): number {
  const { line, column } = item.kind === 'finding' ? item.finding : item.error;
  return line * 1_000_000 + column;
}

/** Severity of a row: parse errors are errors. */
export function itemSeverity(item: ReportItem): Severity {
  return item.kind === 'finding' ? item.finding.severity : 'error';
}

/** The marker/hover text: `RULE: message`. */
export function itemMessage(item: ReportItem): string {
  return item.kind === 'finding'
    ? `${item.finding.rule}: ${item.finding.message}`
    : `Parse error: ${item.error.message}`;
}

/** `products.create_time`, `create_time`, or '' when the finding names no column. */
export function findingTarget(finding: Finding): string {
  const columns = finding.columns.join(', ');
  if (finding.table && columns) return `${finding.table}.${columns}`;
  return finding.table ?? columns;
}

/** Counts by severity for the panel header. */
export function severityCounts(items: ReportItem[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const item of items) counts[itemSeverity(item)] += 1;
  return counts;
}
