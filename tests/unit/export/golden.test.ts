// Golden export scripts: each case in tests/fixtures/export/cases/*.json renders exactly its .expected.sql.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  planExport,
  renderScript,
  type ExportItem,
  type RenderOptions,
} from '../../../src/core/export/index.js';
import type { Flavor } from '../../../src/core/flavors/capabilities.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';
import { itemId, sourceQuery } from '../../../src/core/workspace/model.js';

const DIR = path.join(import.meta.dirname, '../../fixtures/export/cases');

interface GoldenCase {
  description: string;
  flavor: Flavor;
  version: string;
  schema: string | null;
  items: {
    table: string;
    kind: string;
    ddl: string[];
    sources: string[];
    rewrittenSql?: string;
    notes?: string[];
  }[];
  options: Partial<RenderOptions>;
}

/** Render a case: plan against its schema, fixed timestamp and version. */
export function renderCase(test: GoldenCase): string {
  const items: ExportItem[] = test.items.map((item) => ({
    id: itemId(item.table, { kind: item.kind as 'index', ddl: item.ddl }),
    table: item.table,
    kind: item.kind,
    ddl: item.ddl,
    notes: item.notes ?? [],
    ...(item.rewrittenSql ? { rewrittenSql: item.rewrittenSql } : {}),
    sources: item.sources.map((sql) => sourceQuery(sql, 'pasted')),
  }));
  const schema = test.schema === null ? null : schemaFromDdl(test.schema, test.flavor).schema;
  const plan = planExport(items, test.flavor, schema);
  return renderScript(plan, {
    flavor: test.flavor,
    version: test.version,
    generatedAt: '2025-01-01T00:00:00.000Z',
    sargableVersion: '0.0.0-test',
    ...test.options,
  }).text;
}

const cases = readdirSync(DIR)
  .filter((name) => name.endsWith('.json'))
  .sort();

describe('export golden scripts', () => {
  it('has cases', () => expect(cases.length).toBeGreaterThanOrEqual(5));
  it.each(cases)('%s', (name) => {
    const test = JSON.parse(readFileSync(path.join(DIR, name), 'utf8')) as GoldenCase;
    const actual = renderCase(test);
    const expectedFile = path.join(DIR, name.replace(/\.json$/, '.expected.sql'));
    if (process.env.UPDATE_GOLDEN) writeFileSync(expectedFile, actual);
    expect(actual).toBe(readFileSync(expectedFile, 'utf8'));
  });
});
