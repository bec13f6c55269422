// Golden tests: every real-server capture and seed block parses to its reviewed `.expected.json` tree.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePlan } from '../../../src/core/explain/index.js';

const root = join(import.meta.dirname, '../../fixtures/explain');
const update = process.env.UPDATE_EXPLAIN_GOLDEN === '1';

/** Raw inputs: every fixture that is not an expectation or a README. */
function inputs(dir: string): string[] {
  return readdirSync(join(root, dir))
    .filter((name) => !name.endsWith('.expected.json') && !name.endsWith('.md'))
    .sort();
}

/** How a raw file is handed to parsePlan: mysql2 rows and JSON documents decoded, text as is. */
function load(path: string): string | object {
  const text = readFileSync(path, 'utf8');
  return path.endsWith('.traditional.json') ? (JSON.parse(text) as object) : text;
}

for (const dir of ['seed', 'mysql-8.0.33', 'mariadb-10.11']) {
  describe(`golden ${dir}`, () => {
    const files = inputs(dir);
    it('has captures', () => {
      expect(files.length).toBeGreaterThan(dir === 'seed' ? 6 : 60);
    });
    for (const file of files) {
      it(file, () => {
        const path = join(root, dir, file);
        const expectedPath = path.replace(/\.(json|txt)$/, '.expected.json');
        const hint = dir.startsWith('mariadb')
          ? { flavor: 'mariadb' as const }
          : dir.startsWith('mysql')
            ? { flavor: 'mysql' as const }
            : {};
        const actual = parsePlan(load(path), hint);
        if (update && !existsSync(expectedPath))
          writeFileSync(expectedPath, `${JSON.stringify(actual, null, 2)}\n`);
        expect(
          existsSync(expectedPath),
          `missing ${expectedPath}: review the parse, then UPDATE_EXPLAIN_GOLDEN=1`,
        ).toBe(true);
        expect(actual).toEqual(JSON.parse(readFileSync(expectedPath, 'utf8')));
      });
    }
  });
}
