// A CAST of a string column in proposed DDL, checked against the column's stored values (issue 17).
/*
 * Creating a generated column or functional index over CAST(varchar_col AS SIGNED | DECIMAL | DATE …)
 * evaluates the CAST for every stored row, and the server rejects the DDL when one value does not
 * convert cleanly (MySQL ERROR 1366 / 3751, MariaDB ERROR 1292). Offline the advice carries a risk note
 * with the check to run; on a live connection the main process counts, over a bounded random sample,
 * the non-NULL values that would not convert (castInvalidPredicate), and applyCastChecks withdraws the
 * DDL when any does (with the count and one example) or says how many sampled values all converted.
 * What "converts cleanly" means was measured on MySQL 8.0.33 and MariaDB 10.11: an integer CAST takes
 * optional spaces, a sign and digits (not '1.5', '1e3', '', '0x1A', '12abc'); a DECIMAL/DOUBLE CAST also
 * takes a fraction and an exponent; a date CAST is checked by the server's own CAST: a value is invalid
 * when the CAST is NULL or raises a conversion warning ('2024-01-02abc' converts to the date with warning
 * 1292, and the DDL then fails with ERROR 1292; main/services/cast-check.ts counts those warnings).
 */

import type { AnalysisReport, CastCheck, Finding, Suggestion } from '../model/report.js';
import { NULLIF_HINT } from './evaluation-risk.js';

/** What a live sample saw for one CAST check. */
export interface CastSample extends CastCheck {
  /** Non-NULL values sampled. */
  sampled: number;
  /** How many of them would not convert. */
  invalid: number;
  /** One value that would not convert (truncated), when any. */
  example: string | null;
  /** True when the sample read every non-NULL value of the table. */
  whole: boolean;
  /** `invalid` is a lower bound (the server's warning list was full). */
  atLeast?: boolean;
  /** An `evaluate` check that failed: what the server answered (ERROR 1690 …, or the zero divisor). */
  failure?: string;
}

const INTEGER = `'^[[:space:]]*[-+]?[0-9]+[[:space:]]*$'`;
const NUMBER = `'^[[:space:]]*[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?[[:space:]]*$'`;
/** How much of an example value a note shows. */
export const EXAMPLE_CHARS = 40;

export const isTemporalTarget = (target: string): boolean => /DATE|TIME|YEAR/.test(target);

/** SQL that is true for a (non-NULL) value of `column` (quoted) that CAST(… AS target) would reject. */
export function castInvalidPredicate(column: string, target: string): string {
  if (isTemporalTarget(target)) return `CAST(${column} AS ${target === 'YEAR' ? 'SIGNED' : target}) IS NULL`;
  return `${column} NOT REGEXP ${/^(SIGNED|UNSIGNED|INT|INTEGER)$/.test(target) ? INTEGER : NUMBER}`;
}

const keyOf = (check: CastCheck): string =>
  `${check.table.toLowerCase()}\u0000${check.column.toLowerCase()}\u0000${check.target}\u0000${check.evaluate?.expression ?? ''}`;

/** The distinct CAST checks the report's suggestions ask for. */
export function castCheckRequests(report: AnalysisReport): CastCheck[] {
  const checks = new Map<string, CastCheck>();
  for (const statement of report.statements)
    for (const finding of statement.findings)
      for (const suggestion of finding.suggestions)
        if (suggestion.castCheck) checks.set(keyOf(suggestion.castCheck), suggestion.castCheck);
  return [...checks.values()];
}

const kindName = (suggestion: Suggestion): string =>
  suggestion.kind === 'generated-column' ? 'generated column' : 'functional index';

/**
 * Withdraw every suggestion whose CAST a sample showed to fail on stored values (the finding says why,
 * with the count and one example); a suggestion whose sampled values all convert says how many were seen.
 */
export function applyCastChecks(report: AnalysisReport, samples: readonly CastSample[]): AnalysisReport {
  if (samples.length === 0) return report;
  const byKey = new Map(samples.map((sample) => [keyOf(sample), sample]));
  const applyTo = (finding: Finding): Finding => {
    const notes: string[] = [];
    const suggestions: Suggestion[] = [];
    // The finding says why a suggestion is withdrawn (once); a kept one says what the check saw.
    const withdraw = (note: string) => {
      if (!notes.includes(note)) notes.push(note);
    };
    const keep = (suggestion: Suggestion, note: string) =>
      suggestions.push({ ...suggestion, notes: [...suggestion.notes, note] });
    for (const suggestion of finding.suggestions) {
      const sample = suggestion.castCheck ? byKey.get(keyOf(suggestion.castCheck)) : undefined;
      if (!sample) {
        suggestions.push(suggestion);
        continue;
      }
      if (sample.evaluate) {
        if (sample.failure)
          withdraw(
            `No ${kindName(suggestion)} proposed: computing ${sample.evaluate.expression} fails on the stored rows (${sample.failure}), so the DDL would fail the same way. Compare the bare columns (a column-side rewrite) or fix those rows first.${/ERROR 1365/.test(sample.failure) ? ` ${NULLIF_HINT(sample.evaluate.divisors)}` : ''}`,
          );
        else
          keep(
            suggestion,
            `Live check: ${sample.evaluate.expression} computes without error for the stored extremes of ${sample.evaluate.columns.join(', ')}${sample.evaluate.divisors.length ? ` and no stored ${sample.evaluate.divisors.join(' / ')} is 0` : ''}, so the DDL runs on today's data.`,
          );
        continue;
      }
      const scope = sample.whole ? 'all' : 'a random sample of';
      const kind = isTemporalTarget(sample.target) ? 'date/time' : 'number';
      if (sample.invalid > 0) {
        const example = (sample.example ?? '').slice(0, EXAMPLE_CHARS);
        withdraw(
          `No ${kindName(suggestion)} proposed: ${sample.atLeast ? 'at least ' : ''}${sample.invalid} of ${scope} ${sample.sampled} non-NULL ${sample.column} values ${sample.invalid === 1 ? 'is' : 'are'} not a valid ${kind} for CAST(… AS ${sample.target}) (e.g. '${example}'${(sample.example ?? '').length > EXAMPLE_CHARS ? '…' : ''}${kind === 'date/time' ? '; the server does not convert it, or converts it only with a warning' : ''}), so the DDL would fail (MySQL ERROR 1366 / 1292 / 3751, MariaDB ERROR 1292). Clean or exclude those values first.`,
        );
        continue;
      }
      keep(
        suggestion,
        sample.sampled === 0
          ? `Live check: ${sample.column} holds no non-NULL value now, so the DDL cannot fail on stored data.`
          : `Live check: ${scope} ${sample.sampled} non-NULL ${sample.column} values convert to ${sample.target}${sample.whole ? '' : ' (values outside the sample may still fail)'}.`,
      );
    }
    if (notes.length === 0 && suggestions.length === finding.suggestions.length)
      return { ...finding, suggestions };
    return { ...finding, suggestions, notes: [...(finding.notes ?? []), ...notes] };
  };
  return {
    ...report,
    statements: report.statements.map((statement) => ({
      ...statement,
      findings: statement.findings.map(applyTo),
    })),
  };
}
