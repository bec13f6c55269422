// Every input path reads the same encodings the same way (issue 19): the SQL as a FILE read whole, a FILE
// read as a stream, and standard input; the schema as `--schema FILE`, `--schema -`, a schema file the
// UI loads (main/services/schema-files.ts) and pasted text (loadSchemaText). UTF-8 with a BOM and CRLF,
// UTF-16 LE/BE with a BOM and NUL bytes give the report (or schema) of the clean UTF-8 text; text that is
// not UTF-8 (Latin-1, a character cut off at the end) is refused on every path with the offset and what
// to do — never read as replacement characters.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSchemaText } from '../../../src/core/schema/ddl-load.js';
import { loadSchemaFile } from '../../../src/main/services/schema-files.js';
import { runCliCaptured } from '../../support/cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'sargable-encodings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SQL =
  "SELECT id FROM orders WHERE YEAR(created) = 2024 AND note = 'café ☕';\nSELECT id FROM orders WHERE customer_id + 1 = 5;\n";
const DDL =
  "CREATE TABLE orders (\n  id INT PRIMARY KEY,\n  customer_id INT,\n  created DATETIME,\n  note VARCHAR(20) DEFAULT 'café ☕',\n  KEY idx_customer (customer_id)\n);\n";

/** The same text in each encoding a user may have (and NUL bytes where each path reads them as blanks). */
function variants(text: string, nul: string): Record<string, Buffer> {
  const utf16be = Buffer.from(text, 'utf16le');
  utf16be.swap16();
  return {
    'UTF-8 with a BOM and CRLF': Buffer.from(`\uFEFF${text.replace(/\n/g, '\r\n')}`),
    'UTF-16 LE with a BOM': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
    'UTF-16 BE with a BOM': Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be]),
    'NUL bytes': Buffer.from(nul),
  };
}
const BAD: Record<string, { bytes: Buffer; message: RegExp }> = {
  'Latin-1': {
    bytes: Buffer.from("SELECT 1;\nSELECT 'caf\xe9';\n", 'latin1'),
    message: /is not UTF-8 text \(byte 0xe9 at offset 21 is not valid UTF-8\)/,
  },
  'a character cut off at the end': {
    bytes: Buffer.concat([Buffer.from("SELECT 1;\nSELECT 'caf"), Buffer.from([0xc3])]),
    message: /is not UTF-8 text \(it ends inside a character, after 22 bytes\)/,
  },
};

/** Standard input in pieces of `size` bytes (characters and BOMs cut anywhere). */
const pieces = (bytes: Buffer, size: number) =>
  async function* () {
    for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
  };

function file(name: string, bytes: Buffer | string): string {
  writeFileSync(path.join(dir, name), bytes);
  return name;
}

describe('the SQL: FILE, FILE --stream and standard input', () => {
  const run = async (bytes: Buffer, how: 'file' | 'stream' | 'stdin') => {
    const name = file(`q-${how}.sql`, bytes);
    const args = ['analyze', '--format', 'json'];
    const result =
      how === 'stdin'
        ? await runCliCaptured([...args, '-'], { cwd: dir, stdinChunks: pieces(bytes, 3) })
        : await runCliCaptured([...args, ...(how === 'stream' ? ['--stream'] : []), name], { cwd: dir });
    return { ...result, stdout: result.stdout.replaceAll(name, 'Q') };
  };
  // A NUL inside a string literal is data (the server accepts it): the report keeps it.
  const withNul = SQL.replace("'café ☕'", "'caf\u0000é'");

  it.each(['file', 'stream', 'stdin'] as const)(
    '%s: every encoding gives the clean text’s report',
    async (how) => {
      const clean = await run(Buffer.from(SQL), how);
      expect(clean.code).toBe(0);
      expect(JSON.parse(clean.stdout).statements).toHaveLength(2);
      for (const [label, bytes] of Object.entries(variants(SQL, withNul))) {
        const result = await run(bytes, how);
        expect({ label, code: result.code, stderr: result.stderr }).toEqual({ label, code: 0, stderr: '' });
        if (label === 'NUL bytes') {
          expect(JSON.parse(result.stdout).statements[0].sql).toContain('caf\u0000é');
          expect(JSON.parse(result.stdout).statements[0].findings).toEqual(
            JSON.parse(clean.stdout).statements[0].findings,
          );
        } else expect({ label, stdout: result.stdout }).toEqual({ label, stdout: clean.stdout });
      }
    },
  );

  it.each(['file', 'stream', 'stdin'] as const)(
    '%s: text that is not UTF-8 is refused with the offset',
    async (how) => {
      for (const [label, { bytes, message }] of Object.entries(BAD)) {
        const result = await run(bytes, how);
        expect({ label, code: result.code }).toEqual({ label, code: 2 });
        expect(result.stderr).toMatch(message);
        expect(result.stderr).toMatch(/hint: Convert it to UTF-8 first, e\.g\. iconv/);
      }
    },
  );
});

describe('the schema: --schema FILE, --schema -, a schema file in the UI, pasted text', () => {
  const query = file('schema-q.sql', 'SELECT id FROM orders WHERE YEAR(created) = 2024;\n');
  // NUL bytes between tokens (what a broken copy leaves) are read as blanks.
  const withNul = DDL.replace('id INT PRIMARY KEY', 'id INT\u0000PRIMARY KEY\u0000');
  const load = async (bytes: Buffer, how: 'cli-file' | 'cli-stdin' | 'ui-file') => {
    if (how === 'ui-file') {
      const loaded = await loadSchemaFile(
        { path: path.join(dir, file('ui.sql', bytes)), name: 'ui.sql' },
        {
          flavor: 'mysql',
        },
      );
      return loaded.schema.tables;
    }
    const schema = how === 'cli-stdin' ? '-' : file('schema.sql', bytes);
    const result = await runCliCaptured(['analyze', '--schema', schema, '--format', 'json', query], {
      cwd: dir,
      ...(how === 'cli-stdin' ? { stdinChunks: pieces(bytes, 5) } : {}),
    });
    if (result.code !== 0) throw new Error(result.stderr);
    const report = JSON.parse(result.stdout) as { schemaLoad: { loaded: string[]; skipped: unknown[] } };
    expect(report.schemaLoad.skipped).toEqual([]);
    return report.schemaLoad.loaded;
  };

  it.each(['cli-file', 'cli-stdin', 'ui-file'] as const)(
    '%s: every encoding loads the clean text’s schema',
    async (how) => {
      const clean = await load(Buffer.from(DDL), how);
      expect(JSON.stringify(clean)).toContain('orders');
      for (const [label, bytes] of Object.entries(variants(DDL, withNul)))
        expect({ label, schema: await load(bytes, how) }).toEqual({ label, schema: clean });
    },
  );

  it.each(['cli-file', 'cli-stdin', 'ui-file'] as const)(
    '%s: text that is not UTF-8 is refused with the offset',
    async (how) => {
      for (const [label, { bytes, message }] of Object.entries(BAD))
        await expect(load(bytes, how), label).rejects.toThrow(message);
    },
  );

  it('pasted text (a string already): a BOM, CRLF and NUL bytes load as the clean text', () => {
    const clean = loadSchemaText(DDL).schema;
    for (const text of [`\uFEFF${DDL.replace(/\n/g, '\r\n')}`, withNul])
      expect(loadSchemaText(text).schema).toEqual(clean);
  });
});
