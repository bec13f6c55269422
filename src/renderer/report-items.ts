// Flattens an AnalysisReport into the list the Findings panel and the editor markers share.
//
// A finding's key is its stable identity (rule, statement fingerprint, table, columns, expression; see
// core/workspace/finding-identity.ts), never its list position: the "in export" badges, verifications and
// the selection are kept by key across re-analyses, and a position would point them at another finding as
// soon as the text is edited. The same finding twice (the same query twice) gets `~2`, `~3` in text order.
import type { AnalysisReport, Finding, Severity, StatementError } from '../core/model/report.js';
import { findingIdentity } from '../core/workspace/finding-identity.js';

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
  const findings = report.statements.flatMap((statement) =>
    statement.findings.map((finding) => ({
      identity: findingIdentity(statement.sql, finding),
      kind: 'finding' as const,
      statementIndex: statement.index,
      finding,
    })),
  );
  findings.sort((a, b) => startOf(a) - startOf(b));
  const seen = new Map<string, number>();
  const keyed: ReportItem[] = findings.map(({ identity, ...item }) => {
    const count = (seen.get(identity) ?? 0) + 1;
    seen.set(identity, count);
    return { ...item, key: `finding:${identity}${count > 1 ? `~${count}` : ''}` };
  });
  return [...errors, ...keyed];
}

function startOf(item: { finding: Finding }): number {
  const { line, column } = item.finding;
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
