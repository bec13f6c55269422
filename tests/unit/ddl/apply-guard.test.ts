// Apply DDL's allow-list: index creation and generated columns are accepted, everything else is refused with its reason.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkApplicableDdl } from '../../../src/core/ddl/apply-guard.js';

const fixture = JSON.parse(
  readFileSync(new URL('../../fixtures/ddl/apply-guard.json', import.meta.url), 'utf8'),
) as { accepted: string[]; refused: Record<string, string> };

describe('checkApplicableDdl', () => {
  it('accepts the index and generated-column DDL the advisor and the export produce', () => {
    const verdicts = fixture.accepted.map((sql) => {
      const check = checkApplicableDdl(sql);
      return check.ok ? 'ok' : `${sql} → ${check.reason}`;
    });
    expect(verdicts).toEqual(fixture.accepted.map(() => 'ok'));
  });

  it('refuses everything else, saying why', () => {
    const reasons = Object.fromEntries(
      Object.entries(fixture.refused).map(([sql, expected]) => {
        const check = checkApplicableDdl(sql);
        return [sql, check.ok ? 'accepted' : check.reason.includes(expected) ? expected : check.reason];
      }),
    );
    expect(reasons).toEqual(fixture.refused);
  });

  it('returns the statement without its trailing semicolon and names the table', () => {
    expect(checkApplicableDdl('ALTER TABLE `shop`.`orders` ADD INDEX i (a);\n')).toEqual({
      ok: true,
      kind: 'alter-table',
      table: '`shop`.`orders`',
      sql: 'ALTER TABLE `shop`.`orders` ADD INDEX i (a)',
    });
  });
});
