// CAST checks: which suggestions ask for one, and how a live sample's answer changes the advice.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/core/analyze.js';
import { applyCastChecks, castCheckRequests, castInvalidPredicate } from '../../../src/core/advice/index.js';
import { warnedValue } from '../../../src/main/services/cast-check.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';

const DDL = 'CREATE TABLE t (id int NOT NULL PRIMARY KEY, ref varchar(30), n int)';
const SQL = 'SELECT id FROM t WHERE CAST(ref AS SIGNED) = 42; SELECT id FROM t WHERE ABS(n) = 4';

describe.each(['mysql', 'mariadb'] as const)('cast check (%s)', (flavor) => {
  const server = offlineServerInfo(flavor, flavor === 'mysql' ? '8.0.33' : '10.11.0');
  const report = analyze(SQL, { server, source: 'flags', schema: schemaFromDdl(DDL, flavor).schema });
  const castDdl = (r: typeof report) =>
    r.statements[0]!.findings.flatMap((f) => f.suggestions).filter((s) =>
      s.ddl.some((d) => /CAST\(/.test(d)),
    );

  it('asks once for the CAST of the string column, not for other expressions', () => {
    expect(castCheckRequests(report)).toEqual([{ table: 't', column: 'ref', target: 'SIGNED' }]);
    expect(castDdl(report).length).toBeGreaterThan(0);
  });

  it('withdraws the DDL when a sampled value does not convert, and keeps it with the sample size otherwise', () => {
    const bad = applyCastChecks(report, [
      {
        table: 't',
        column: 'ref',
        target: 'SIGNED',
        sampled: 500,
        invalid: 2,
        example: 'x'.repeat(60),
        whole: false,
      },
    ]);
    expect(castDdl(bad)).toEqual([]);
    const notes = bad.statements[0]!.findings.flatMap((f) => f.notes ?? []);
    expect(notes.join('\n')).toContain(
      `2 of a random sample of 500 non-NULL ref values are not a valid number`,
    );
    expect(notes.join('\n')).toContain(`'${'x'.repeat(40)}'…`);
    // The other statement is untouched.
    expect(bad.statements[1]).toEqual(report.statements[1]);

    const good = applyCastChecks(report, [
      { table: 't', column: 'ref', target: 'SIGNED', sampled: 500, invalid: 0, example: null, whole: true },
    ]);
    expect(castDdl(good).length).toBe(castDdl(report).length);
    for (const suggestion of castDdl(good))
      expect(suggestion.notes).toContain('Live check: all 500 non-NULL ref values convert to SIGNED.');
  });
});

describe('date CAST checks judged by the server', () => {
  it('reads the value a conversion warning quotes, on both servers', () => {
    expect(warnedValue("Truncated incorrect date value: '2024-01-02abc'")).toBe('2024-01-02abc');
    expect(
      warnedValue(
        "Incorrect datetime value: '2024-01-02 10:00:00 x' for column ``.`(temporary)`.`v` at row 4",
      ),
    ).toBe('2024-01-02 10:00:00 x');
    expect(
      warnedValue("Delimiter '/' in position 4 in datetime value '2024/01/02' at row 1 is deprecated."),
    ).toBe(null);
  });

  it('says "at least" when the warning list was full', () => {
    const server = offlineServerInfo('mysql', '8.0.33');
    const report = analyze("SELECT id FROM e WHERE CAST(d AS DATE) = '2024-01-02'", {
      server,
      source: 'flags',
      schema: schemaFromDdl('CREATE TABLE e (id int PRIMARY KEY, d varchar(30))', 'mysql').schema,
    });
    const checked = applyCastChecks(report, [
      {
        table: 'e',
        column: 'd',
        target: 'DATE',
        sampled: 10_000,
        invalid: 1024,
        example: '2024-01-02abc',
        whole: false,
        atLeast: true,
      },
    ]);
    const notes = checked.statements[0]!.findings.flatMap((f) => f.notes ?? []).join('\n');
    expect(notes).toContain(
      'at least 1024 of a random sample of 10000 non-NULL d values are not a valid date/time',
    );
    expect(notes).toContain(
      "'2024-01-02abc'; the server does not convert it, or converts it only with a warning",
    );
  });
});

describe('castInvalidPredicate', () => {
  it('uses the integer pattern for SIGNED, the number pattern for DECIMAL and the server CAST for dates', () => {
    expect(castInvalidPredicate('`c`', 'SIGNED')).toContain("'^[[:space:]]*[-+]?[0-9]+[[:space:]]*$'");
    expect(castInvalidPredicate('`c`', 'DECIMAL')).toContain('[eE]');
    expect(castInvalidPredicate('`c`', 'DATE')).toBe('CAST(`c` AS DATE) IS NULL');
  });
});
