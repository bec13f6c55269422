// DIGEST_TEXT → pt-query-digest fingerprint, against digest texts captured from MySQL 8.0.33 and MariaDB 10.11.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  fingerprintFromDigestText,
  isTruncatedDigestText,
  mapDigestToFingerprint,
} from '../../../src/core/capture/index.js';
import { checksum, fingerprint } from '../../../src/core/fingerprint/index.js';

interface Case {
  name: string;
  sql: string;
  /** Why the digest cannot give the author's fingerprint (documented limit). */
  differs?: string;
  digestText: { mysql: string; mariadb: string };
}

const cases = JSON.parse(
  readFileSync(new URL('../../fixtures/capture/digest-text.json', import.meta.url), 'utf8'),
) as Case[];

describe('fingerprintFromDigestText', () => {
  for (const c of cases) {
    for (const flavor of ['mysql', 'mariadb'] as const) {
      it(`${c.name} (${flavor})`, () => {
        const mapped = fingerprintFromDigestText(c.digestText[flavor]);
        // Documented differences must stay different, or the doc is stale.
        if (c.differs) expect(mapped).not.toBe(fingerprint(c.sql));
        else expect(mapped).toBe(fingerprint(c.sql));
      });
    }
  }
});

describe('mapDigestToFingerprint', () => {
  it('prefers a complete sample, falls back to the digest text, gives up on cut texts', () => {
    const sample = "SELECT * FROM t WHERE name = 'Zoë'";
    const fromSample = fingerprint(Buffer.from(sample, 'utf8').toString('latin1'));
    expect({
      sample: mapDigestToFingerprint('SELECT * FROM `t` WHERE `name` = ?', sample),
      cutSample: mapDigestToFingerprint(null, 'SELECT 1', { maxSqlTextLength: 8 }),
      digestText: mapDigestToFingerprint('SELECT * FROM `t` WHERE `v` = ?', null),
      cutDigest: mapDigestToFingerprint('SELECT `a` , `b` , `c` , ...', null),
      overflow: mapDigestToFingerprint(null, null),
    }).toEqual({
      sample: {
        fingerprint: 'select * from t where name = ?',
        checksum: checksum(fromSample),
        source: 'sample',
        exact: true,
      },
      cutSample: { fingerprint: 'select ?', checksum: checksum('select ?'), source: 'sample', exact: false },
      digestText: {
        fingerprint: 'select * from t where v = ?',
        checksum: checksum('select * from t where v = ?'),
        source: 'digest-text',
        exact: false,
      },
      cutDigest: null,
      overflow: null,
    });
  });

  it('tells cut digest texts from value lists', () => {
    expect([
      isTruncatedDigestText('SELECT `a` , ...'),
      isTruncatedDigestText('SELECT * FROM `t` WHERE `id` IN (...)'),
      isTruncatedDigestText('SELECT * FROM `t` WHERE `id` IN (...) '),
    ]).toEqual([true, false, false]);
  });
});
