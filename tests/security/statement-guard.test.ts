// Attack: hostile SQL past the statement guard (issue #20 item 2). The servers are the oracle.
//
// Every generated variant runs first on a plain, unguarded connection with a canary (a user variable
// assigned by INTO, a user-level lock, a stored function that writes a row); whenever the server ran
// the payload, the guard, reading the statement with the session's flavor, version and sql_mode,
// must have refused it. Variants cover every bypass found on the old guard: `--` followed by a
// control character or a no-break space, backticked / double-quoted / spaced function names,
// quoting under NO_BACKSLASH_ESCAPES and ANSI_QUOTES, comments between INTO and OUTFILE, and
// executable comments with every version form.
import fc from 'fast-check';
import type mysql from 'mysql2/promise';
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionLexicalContext } from '../../src/core/sql/lexer.js';
import { checkReadOnlyStatement } from '../../src/main/services/statement-guard.js';
import { connect, scratchDatabaseName, testServers } from '../support/db.js';

const MODES = ['', 'ANSI_QUOTES', 'NO_BACKSLASH_ESCAPES', 'ANSI_QUOTES,NO_BACKSLASH_ESCAPES'] as const;
type Mode = (typeof MODES)[number];

/** What the payload does, and how to tell that it ran. */
type Payload = 'into-var' | 'lock' | 'routine';

/** Characters after `--` (control characters, whitespace, no-break space and friends). */
const AFTER_DASHES = [
  ...Array.from({ length: 0x20 }, (_, code) => code + 1),
  0x7f,
  0xa0,
  0x85,
  0x2028,
  0x3000,
  0xfeff,
].map((code) => String.fromCharCode(code));

/** Separators between tokens: whitespace, comments, executable comments with versions. */
const GAPS = [
  ' ',
  '\t',
  '\n',
  '\u000b',
  '\u000c',
  '\r',
  '/**/',
  '/* x */',
  '/*!*/',
  '/*M!*/',
  '/*!50000*/',
  '/*!99999*/',
  '/*!80033*/',
  '/*!101100*/',
  '/*M!100000*/',
  '/*M!999999*/',
  '#x\n',
  '-- x\n',
  '--\u0001\n',
  '/*+ x */',
];

const VERSION_FORMS = [
  '',
  '00000',
  '12345',
  '50700',
  '80033',
  '80034',
  '99999',
  '100000',
  '101100',
  '999999',
];

interface Variant {
  sql: string;
  payload: Payload;
  mode: Mode;
}

function payloadText(payload: Payload, gap: string, names: { lock: string; fn: string }): string {
  switch (payload) {
    case 'into-var':
      return `INTO${gap}@canary`;
    case 'lock':
      return `, GET_LOCK${gap === ' ' ? '' : gap}('${names.lock}', 0)`;
    case 'routine':
      return `, ${names.fn}()`;
  }
}

/** Generated variants of every known bypass family. */
function variants(names: { lock: string; fn: string; db: string }): fc.Arbitrary<Variant> {
  const mode = fc.constantFrom(...MODES);
  const payload = fc.constantFrom<Payload>('into-var', 'lock', 'routine');
  const gap = fc.constantFrom(...GAPS);
  const dashComment = fc
    .record({ after: fc.constantFrom(...AFTER_DASHES), payload, mode, gap })
    .map(({ after, payload, mode, gap }) => ({
      sql: `SELECT 1 --${after}' \n ${payloadText(payload, gap, names)} -- '`,
      payload,
      mode,
    }));
  const gaps = fc.record({ gap, payload, mode }).map(({ gap, payload, mode }) => ({
    sql: `SELECT 1${gap}${payloadText(payload, gap, names)}`,
    payload,
    mode,
  }));
  const executable = fc
    .record({
      opener: fc.constantFrom('/*!', '/*M!'),
      version: fc.constantFrom(...VERSION_FORMS),
      space: fc.constantFrom(' ', ''),
      payload,
      mode,
    })
    .map(({ opener, version, space, payload, mode }) => ({
      sql: `SELECT 1 ${opener}${version}${space}${payloadText(payload, ' ', names)} */`,
      payload,
      mode,
    }));
  const quoteTricks = fc
    .record({
      template: fc.constantFrom(
        "SELECT 'a\\' {P} -- '",
        'SELECT "a\\" {P} -- "',
        'SELECT "a" {P}',
        "SELECT 1 /*!99999 ' */ {P} /*!99999 ' */",
        "SELECT 1 /*M!999999 ' */ {P} /*M!999999 ' */",
        "SELECT 1 /*!80034 ' */ {P} /*!80034 ' */",
        "SELECT 1 /*M! ' */ {P} /*M! ' */",
        "SELECT 1 # '\n{P} -- '",
        "SELECT 1 -- '\r{P} -- '",
        "SELECT 'a''' {P} -- '",
        'SELECT `a\\` {P} -- `',
        "SELECT _utf8mb4'a\\' {P} -- '",
        "SELECT N'a\\' {P} -- '",
      ),
      payload,
      mode,
    })
    .map(({ template, payload, mode }) => ({
      sql: template.replace('{P}', payloadText(payload, ' ', names)),
      payload,
      mode,
    }));
  const names_ = fc
    .record({
      form: fc.constantFrom(
        "`GET_LOCK`('{L}', 0)",
        '"GET_LOCK"(\'{L}\', 0)',
        "get_lock ('{L}', 0)",
        "GET_LOCK/**/('{L}', 0)",
        "GET_LOCK\n('{L}', 0)",
        '`{F}`()',
        '{F} ()',
        '{D}.{F}()',
        '`{D}`.`{F}`()',
        '"{F}"()',
        '{F}/**/()',
        '(SELECT {F}())',
        'IF(1, {F}(), 0)',
      ),
      mode,
    })
    .map(({ form, mode }) => ({
      sql: `SELECT 1, ${form.replaceAll('{L}', names.lock).replaceAll('{F}', names.fn).replaceAll('{D}', names.db)}`,
      payload: (form.includes('{L}') ? 'lock' : 'routine') as Payload,
      mode,
    }));
  return fc.oneof(dashComment, gaps, executable, quoteTricks, names_);
}

describe.each(testServers())('statement guard against the server: $flavor', ({ url }) => {
  let raw: mysql.Connection;
  let version = '';
  const db = scratchDatabaseName('sargable_sec');
  const names = { lock: `sargable_canary_${db.slice(-8)}`, fn: 'canary_fn', db };

  beforeAll(async () => {
    raw = await connect(url);
    await raw.query(`CREATE DATABASE \`${db}\``);
    await raw.query(`USE \`${db}\``);
    await raw.query('CREATE TABLE canary (id INT AUTO_INCREMENT PRIMARY KEY, at DATETIME(6))');
    await raw.query(
      'CREATE FUNCTION canary_fn() RETURNS INT DETERMINISTIC MODIFIES SQL DATA BEGIN INSERT INTO canary (at) VALUES (NOW(6)); RETURN 1; END',
    );
    const [rows] = await raw.query<RowDataPacket[]>('SELECT VERSION() AS v');
    version = String(rows[0]!.v);
  });

  afterAll(async () => {
    await raw.query(`DROP DATABASE IF EXISTS \`${db}\``).catch(() => undefined);
    await raw.query('SELECT RELEASE_ALL_LOCKS()').catch(() => undefined);
    await raw.end();
  });

  /** Runs `variant` unguarded and says whether its payload ran. */
  async function serverRuns(variant: Variant): Promise<boolean> {
    await raw.query(`SET SESSION sql_mode = '${variant.mode}'`);
    await raw.query('SET @canary = NULL');
    const [[before]] = await raw.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM canary');
    try {
      await raw.query(variant.sql);
    } catch {
      // A syntax error: nothing ran (checked below anyway).
    }
    await raw.query('SET SESSION sql_mode = DEFAULT');
    const [[state]] = await raw.query<RowDataPacket[]>(
      'SELECT @canary AS canary, IS_USED_LOCK(?) AS lock_holder, (SELECT COUNT(*) FROM canary) AS n',
      [names.lock],
    );
    await raw.query('SELECT RELEASE_ALL_LOCKS()');
    return state!.canary !== null || state!.lock_holder !== null || Number(state!.n) !== Number(before!.n);
  }

  it('refuses every generated variant the server executes (fuzzed, with canaries)', async () => {
    let executed = 0;
    const slipped: string[] = [];
    await fc.assert(
      fc.asyncProperty(variants(names), async (variant) => {
        const runs = await serverRuns(variant);
        if (!runs) return;
        executed += 1;
        const verdict = checkReadOnlyStatement(variant.sql, {
          context: sessionLexicalContext(version, variant.mode),
        });
        if (verdict.allowed) slipped.push(`${JSON.stringify(variant.sql)} under sql_mode '${variant.mode}'`);
      }),
      { numRuns: 400, seed: 20_20 },
    );
    expect(slipped).toEqual([]);
    // The property is not vacuous: many variants did run their payload on the server.
    expect(executed).toBeGreaterThan(50);
  });

  it('refuses the known bypasses whatever the sql_mode, also when it is not known', async () => {
    const known = [
      "SELECT 1 --\u0001' \n INTO @canary -- '",
      "SELECT 1 --\u007f' \n INTO @canary -- '",
      "SELECT 1 --\u001f' \n INTO @canary -- '",
      `SELECT \`GET_LOCK\`('${names.lock}', 0)`,
      'SELECT 1 INTO/**/@canary',
      "SELECT 'a\\' INTO @canary -- '",
      'SELECT "a\\" INTO @canary -- "',
      `SELECT ${names.db}.${names.fn}()`,
    ];
    let ran = 0;
    for (const sql of known) {
      for (const mode of MODES) {
        if (!(await serverRuns({ sql, mode, payload: 'into-var' }))) continue;
        ran += 1;
        const context = sessionLexicalContext(version, mode);
        expect(checkReadOnlyStatement(sql, { context }), `${sql} under '${mode}'`).toMatchObject({
          allowed: false,
        });
      }
      expect(checkReadOnlyStatement(sql), sql).toMatchObject({ allowed: false });
    }
    // Each of them ran its payload under at least one sql_mode.
    expect(ran).toBeGreaterThanOrEqual(known.length);
  });

  it('still allows what the app itself runs on an analysis session', () => {
    const context = sessionLexicalContext(version, '');
    for (const sql of [
      'SELECT COUNT(*) AS n, MAX(id) FROM t WHERE a IN (1, 2) AND b LIKE "x%"',
      "SELECT CONCAT(a, '\\n'), IFNULL(b, 0), GROUP_CONCAT(c ORDER BY c SEPARATOR ',') FROM t GROUP BY a",
      'SELECT /*+ MAX_EXECUTION_TIME(2000) */ COUNT(*), COUNT(DISTINCT `a`) FROM (SELECT `a` FROM `d`.`t` LIMIT 10000) AS s',
      'WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r',
      'SELECT CAST(a AS CHAR(10)), CONVERT(b, DECIMAL(10, 2)), ROW_NUMBER() OVER (PARTITION BY a) FROM t',
      'EXPLAIN FORMAT=JSON SELECT * FROM t WHERE MONTH(created) = 10',
    ]) {
      expect(checkReadOnlyStatement(sql, { context }), sql).toEqual({ allowed: true });
    }
  });
});
