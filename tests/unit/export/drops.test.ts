// Index drops in the export (core/export/drops.ts, render-drops.ts): the safe step, the drop step, what is refused.
import { describe, expect, it } from 'vitest';
import {
  planExport,
  renderScript,
  type ExportItem,
  type ForeignKeyRef,
} from '../../../src/core/export/index.js';
import type { Flavor } from '../../../src/core/flavors/capabilities.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';

const SCHEMA = `
CREATE TABLE parent (id INT PRIMARY KEY, code INT, KEY code_i (code), UNIQUE KEY code_u (code));
CREATE TABLE child (
  id INT PRIMARY KEY, pid INT, a INT, b INT, c VARCHAR(20),
  KEY pid_i (pid), KEY pid_dup (pid), KEY a_i (a), KEY ab_i (a, b), KEY c_i (c(10)),
  UNIQUE KEY b_u (b)
);`;
const FKS: ForeignKeyRef[] = [
  {
    table: 'child',
    name: 'fk_parent',
    columns: ['pid'],
    referencedTable: 'parent',
    referencedColumns: ['id'],
  },
];

const drop = (table: string, index: string): ExportItem => ({
  id: `${table}.${index}`,
  table,
  kind: 'drop-index',
  ddl: [`ALTER TABLE \`${table}\` DROP INDEX \`${index}\`;`],
  notes: [`${index} is redundant.`],
  sources: [],
});

function plan(items: ExportItem[], flavor: Flavor = 'mysql', fks: ForeignKeyRef[] | null = FKS) {
  return planExport(items, flavor, schemaFromDdl(SCHEMA, flavor).schema, { foreignKeys: fks });
}

function render(
  items: ExportItem[],
  flavor: Flavor,
  version: string,
  extra: { rollback?: boolean; dropStep?: boolean } = {},
) {
  return renderScript(plan(items, flavor), {
    flavor,
    version,
    generatedAt: '2025-01-01T00:00:00.000Z',
    sargableVersion: 'test',
    ...extra,
  });
}

describe('index drops: what is refused', () => {
  it('needs the schema and the foreign keys', () => {
    expect(planExport([drop('child', 'a_i')], 'mysql', null).skipped[0]?.reason).toMatch(/current schema/);
    expect(plan([drop('child', 'a_i')], 'mysql', null).skipped[0]?.reason).toMatch(/FOREIGN KEYs/);
    expect(plan([drop('child', 'a_i')]).tables[0]?.drops.map((d) => d.name)).toEqual(['a_i']);
  });
  it('never drops the primary key or a unique key', () => {
    const result = plan([drop('child', 'PRIMARY'), drop('child', 'b_u')]);
    expect(result.tables).toEqual([]);
    expect(result.skipped.map((s) => s.reason)).toEqual([
      expect.stringMatching(/PRIMARY KEY: never dropped/),
      expect.stringMatching(/UNIQUE constraint/),
    ]);
  });
  it('keeps one index for every foreign key (child side), counting the other drops of the export', () => {
    // Either duplicate alone can go; both cannot.
    const one = plan([drop('child', 'pid_dup')]);
    expect(one.tables[0]?.drops.map((d) => d.name)).toEqual(['pid_dup']);
    const both = plan([drop('child', 'pid_dup'), drop('child', 'pid_i')]);
    expect(both.tables[0]?.drops.map((d) => d.name)).toEqual(['pid_dup']);
    expect(both.skipped[0]?.reason).toMatch(
      /only index on its columns \(pid\) of FOREIGN KEY fk_parent.*1553/,
    );
  });
  it('keeps the referenced side too', () => {
    const fks: ForeignKeyRef[] = [
      {
        table: 'child',
        name: 'fk_code',
        columns: ['a'],
        referencedTable: 'parent',
        referencedColumns: ['code'],
      },
    ];
    // code_u also starts with code: code_i may go, and then code_u is still there.
    const result = plan([drop('parent', 'code_i')], 'mysql', fks);
    expect(result.tables[0]?.drops.map((d) => d.name)).toEqual(['code_i']);
    const schema = schemaFromDdl(
      'CREATE TABLE parent (id INT PRIMARY KEY, code INT, KEY code_i (code));',
      'mysql',
    ).schema;
    const alone = planExport([drop('parent', 'code_i')], 'mysql', schema, { foreignKeys: fks });
    expect(alone.skipped[0]?.reason).toMatch(/the columns it references \(code\) of FOREIGN KEY fk_code/);
  });
  it('says when the index is gone', () => {
    expect(plan([drop('child', 'nope')]).skipped[0]).toMatchObject({
      applied: true,
      reason: expect.stringMatching(/already applied: child\.nope no longer exists/),
    });
  });
});

describe('index drops: the steps', () => {
  it('MySQL 8: INVISIBLE first, the DROP in a comment; rollback VISIBLE', () => {
    const forward = render([drop('child', 'a_i'), drop('child', 'c_i')], 'mysql', '8.0.33');
    expect(forward.statements.map((s) => s.sql)).toEqual([
      'ALTER TABLE `child`\n  ALTER INDEX `a_i` INVISIBLE,\n  ALTER INDEX `c_i` INVISIBLE;',
    ]);
    expect(forward.text).toMatch(
      /-- {3}Step 2, after watching the workload: ALTER TABLE `child` DROP INDEX `a_i`/,
    );
    const back = render([drop('child', 'a_i'), drop('child', 'c_i')], 'mysql', '8.0.33', { rollback: true });
    expect(back.statements.map((s) => s.sql)).toEqual([
      'ALTER TABLE `child`\n  ALTER INDEX `c_i` VISIBLE,\n  ALTER INDEX `a_i` VISIBLE;',
    ]);
  });
  it('MariaDB 10.11: IGNORED first; rollback NOT IGNORED', () => {
    const forward = render([drop('child', 'a_i')], 'mariadb', '10.11.6');
    expect(forward.statements.map((s) => s.sql)).toEqual([
      'ALTER TABLE `child`\n  ALTER INDEX `a_i` IGNORED;',
    ]);
    const back = render([drop('child', 'a_i')], 'mariadb', '10.11.6', { rollback: true });
    expect(back.statements.map((s) => s.sql)).toEqual([
      'ALTER TABLE `child`\n  ALTER INDEX `a_i` NOT IGNORED;',
    ]);
  });
  it('the drop step: DROP online; rollback re-creates the key (prefix kept)', () => {
    const forward = render([drop('child', 'c_i')], 'mysql', '8.0.33', { dropStep: true });
    expect(forward.statements.map((s) => s.sql)).toEqual([
      'ALTER TABLE `child`\n  DROP INDEX `c_i`,\n  ALGORITHM=INPLACE, LOCK=NONE;',
    ]);
    const back = render([drop('child', 'c_i')], 'mysql', '8.0.33', { dropStep: true, rollback: true });
    expect(back.statements.map((s) => s.sql)).toEqual([
      'ALTER TABLE `child`\n  ADD INDEX `c_i` (`c`(10)),\n  ALGORITHM=INPLACE, LOCK=NONE;',
    ]);
  });
  it('a server without hidden indexes (MariaDB 10.5) gets the DROP as its only step', () => {
    const forward = render([drop('child', 'a_i')], 'mariadb', '10.5.20');
    expect(forward.statements.map((s) => s.sql)).toEqual([
      'ALTER TABLE `child`\n  DROP INDEX `a_i`,\n  ALGORITHM=INPLACE, LOCK=NONE;',
    ]);
  });
  it('an index step 1 already hid is re-created hidden by the drop step’s rollback', () => {
    const hidden = schemaFromDdl(
      'CREATE TABLE child (id INT PRIMARY KEY, a INT, KEY a_i (a) /*!80000 INVISIBLE */);',
      'mysql',
    ).schema;
    expect(hidden.tables[0]?.indexes.find((i) => i.name === 'a_i')?.visible).toBe(false);
    const result = planExport([drop('child', 'a_i')], 'mysql', hidden, { foreignKeys: [] });
    const options = { flavor: 'mysql' as const, version: '8.0.33', generatedAt: 'x', sargableVersion: 't' };
    expect(renderScript(result, options).statements).toEqual([]);
    expect(renderScript(result, options).text).toMatch(/already INVISIBLE \(step 1 ran\)/);
    expect(renderScript(result, { ...options, dropStep: true, rollback: true }).statements[0]?.sql).toBe(
      'ALTER TABLE `child`\n  ADD INDEX `a_i` (`a`) INVISIBLE,\n  ALGORITHM=INPLACE, LOCK=NONE;',
    );
  });
  it('adds and drops of one table: the ADD statement first, then the hiding', () => {
    const add: ExportItem = {
      id: 'add',
      table: 'child',
      kind: 'index',
      ddl: ['ALTER TABLE child ADD INDEX abc_i (a, b, c);'],
      notes: [],
      sources: [],
    };
    const forward = render([add, drop('child', 'ab_i')], 'mysql', '8.0.33');
    expect(forward.statements.map((s) => s.sql)).toEqual([
      'ALTER TABLE `child`\n  ADD INDEX `abc_i` (`a`, `b`, `c`),\n  ALGORITHM=INPLACE, LOCK=NONE;',
      'ALTER TABLE `child`\n  ALTER INDEX `ab_i` INVISIBLE;',
    ]);
    const back = render([add, drop('child', 'ab_i')], 'mysql', '8.0.33', { rollback: true });
    expect(back.statements.map((s) => s.sql)).toEqual([
      'ALTER TABLE `child`\n  ALTER INDEX `ab_i` VISIBLE;',
      'ALTER TABLE `child`\n  DROP INDEX `abc_i`,\n  ALGORITHM=INPLACE, LOCK=NONE;',
    ]);
  });
});
