// Fuzz: mutated rule fixtures and token soup through analyze() and the read-only statement guard.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/core/analyze.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';
import { checkReadOnlyStatement } from '../../../src/main/services/statement-guard.js';
import { mutated, ruleSqlCorpus, SlowestInput, tokenSoup } from './fuzz-support.js';

/** analyze() costs ~1–10 ms per input (the SQL parser), so it gets fewer runs than the cheap parsers. */
const ANALYZE_RUNS = Number(process.env.SARGABLE_FUZZ_ANALYZE_RUNS ?? 15_000);
const GUARD_RUNS = Number(process.env.SARGABLE_FUZZ_GUARD_RUNS ?? 40_000);
const LIMIT_MS = 2_000;
const corpus = ruleSqlCorpus();
const servers = [offlineServerInfo('mysql', '8.0.33'), offlineServerInfo('mariadb', '10.11.6')];
const sqlInputs = fc.oneof(mutated(corpus), tokenSoup);

describe('fuzz: SQL', () => {
  it(`analyze() never throws on ${ANALYZE_RUNS} mutated or random statements`, () => {
    const slowest = new SlowestInput(LIMIT_MS);
    fc.assert(
      fc.property(sqlInputs, fc.nat({ max: 1 }), (sql, which) => {
        const report = slowest.time(sql, () => analyze(sql, { server: servers[which]!, source: 'flags' }));
        // Bad SQL is a diagnostic in the report, never an exception.
        expect(Array.isArray(report.statements) && Array.isArray(report.errors)).toBe(true);
      }),
      { numRuns: ANALYZE_RUNS },
    );
    console.info(slowest.report('analyze'));
  }, 170_000);

  it(`the statement guard decides every one of ${GUARD_RUNS} inputs without throwing`, () => {
    const slowest = new SlowestInput(LIMIT_MS);
    fc.assert(
      fc.property(fc.oneof(sqlInputs, fc.string({ maxLength: 200 })), (sql) => {
        const verdict = slowest.time(sql, () => checkReadOnlyStatement(sql));
        expect(verdict.allowed || verdict.reason.length > 0).toBe(true);
      }),
      { numRuns: GUARD_RUNS },
    );
    console.info(slowest.report('statement guard'));
  }, 170_000);
});
