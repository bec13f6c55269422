// Real captures from MySQL 8.0 (log_slow_extra) and MariaDB 10.11 (query_plan, explain): vs pt-query-digest and our golden CLI JSON.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { digestToJson } from '../../../src/cli/format.js';
import { digestFilesInThread } from '../../../src/main/services/slowlog-file.js';
import { digestFile, ours, theirs, type ExpectedJson } from './pt-json.js';

// Written by tests/integration/slowlog-real.test.ts with SARGABLE_UPDATE_SLOWLOG_FIXTURES=1.
const dir = fileURLToPath(new URL('../../fixtures/slowlogs/generated/', import.meta.url));
const logs = readdirSync(dir)
  .filter((name) => name.endsWith('.log'))
  .map((name) => name.slice(0, -'.log'.length))
  .sort();

describe('slow logs captured from the test servers', () => {
  it('has a capture per server', () => {
    expect(logs).toEqual(['mariadb-workload', 'mysql-workload']);
  });

  it.each(logs)('%s: same classes, counts, times and schemas as pt-query-digest', (name) => {
    const pt = JSON.parse(readFileSync(`${dir}${name}.pt.json`, 'utf8')) as ExpectedJson;
    const result = digestFile(`${dir}${name}.log`);
    const schemas = (classes: { checksum: string; schema: string | undefined }[]) =>
      Object.fromEntries(classes.map((c) => [c.checksum, c.schema]));
    expect({
      digest: ours(result),
      schemas: schemas(
        result.classes.map((c) => ({ checksum: c.checksum, schema: c.schemas.join(',') || undefined })),
      ),
    }).toEqual({
      digest: theirs(pt),
      schemas: schemas(pt.classes.map((c) => ({ checksum: c.checksum, schema: c.metrics.db?.value }))),
    });
  });

  it.each(logs)('%s: sargable digest --format json matches the golden file', async (name) => {
    const json = digestToJson(await digestFilesInThread([`${dir}${name}.log`]));
    const golden = JSON.parse(readFileSync(`${dir}${name}.expected.json`, 'utf8')) as unknown;
    expect({ ...json, source: { ...json.source, files: [], elapsedMs: 0 } }).toEqual(golden);
  });

  it('JSON carries every field of the CLI contract', async () => {
    const json = digestToJson(await digestFilesInThread([`${dir}mysql-workload.log`]));
    const first = json.classes[0]!;
    expect({
      top: Object.keys(json),
      class: Object.keys(first),
      metric: Object.keys(first.queryTime ?? {}),
      example: typeof first.example,
    }).toEqual({
      top: expect.arrayContaining(['source', 'events', 'classes', 'skipped']) as unknown,
      class: expect.arrayContaining([
        'checksum',
        'fingerprint',
        'count',
        'queryTime',
        'lockTime',
        'rowsSent',
        'rowsExamined',
        'firstSeen',
        'lastSeen',
        'schemas',
        'example',
      ]) as unknown,
      metric: expect.arrayContaining(['sum', 'min', 'max', 'avg', 'p95', 'median']) as unknown,
      example: 'string',
    });
  });
});
