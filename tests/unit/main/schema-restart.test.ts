// A loaded schema file's id survives an app restart (issue 19), through the real services and handlers:
// the app loads a file (schema.loadFile, a job), the renderer keeps the schemaId; a new app on the same
// config dir (the restart) analyses and completes with that id, the file read again on
// first use. A file changed or removed since gets a NOT_FOUND that says so. The canary is an app on
// another config dir: there the id is unknown, as every id was after a restart before.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../../src/main/handlers/index.js';
import { createServices } from '../../../src/main/services/index.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-schema-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DDL =
  'CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT NOT NULL, created DATETIME NOT NULL, KEY idx_created (created));\n';
const SQL = 'SELECT id FROM orders WHERE DATE(created) = CURDATE()';

/** An app (services and handlers) on `configDir`, allowed to read files under `dir` (web mode --allow-dir). */
function app(configDir: string) {
  return createHandlers(createServices('web', { userDataDir: configDir, allowDirs: [dir] }));
}

async function loadFile(handlers: ReturnType<typeof app>, file: string): Promise<string> {
  const { jobId } = await handlers['schema.loadFile']({ ref: file, flavor: 'mysql' });
  for (;;) {
    const status = await handlers['job.status']({ jobId });
    if (status.state === 'done') return (status.result as { schemaId: string }).schemaId;
    if (status.state !== 'running') throw new Error(JSON.stringify(status));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a schema file id across a restart', () => {
  it('works in a new app on the same config dir; a changed or removed file says so', async () => {
    const configDir = mkdtempSync(path.join(dir, 'config-'));
    const file = path.join(dir, 'orders.sql');
    const other = path.join(dir, 'other.sql');
    writeFileSync(file, DDL);
    writeFileSync(other, DDL);
    const before = app(configDir);
    const schemaId = await loadFile(before, file);
    const otherId = await loadFile(before, other);
    const analysed = await before['analyze.run']({ sql: SQL, schemaId });
    expect(analysed.schemaLoad?.tables).toBe(1);

    const after = app(configDir); // the restart
    const again = await after['analyze.run']({ sql: SQL, schemaId });
    expect(again).toEqual(analysed);
    const outline = await after['schema.outline']({ schemaId });
    expect(JSON.stringify(outline)).toContain('customer_id');

    // Changed after the restart: the next app refuses it with the reason and what to do.
    writeFileSync(other, `${DDL}CREATE TABLE more (id INT);\n`);
    await expect(app(configDir)['analyze.run']({ sql: SQL, schemaId: otherId })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      userMessage: expect.stringMatching(
        /other\.sql changed since it was loaded .*load the schema file again/,
      ),
    });
    rmSync(file);
    await expect(app(configDir)['analyze.run']({ sql: SQL, schemaId })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      userMessage: expect.stringMatching(/orders\.sql is gone .*load the schema file again/),
    });
    // The canary: another config dir knows nothing of the id.
    await expect(
      app(mkdtempSync(path.join(dir, 'config-')))['analyze.run']({ sql: SQL, schemaId: otherId }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
      userMessage: expect.stringMatching(/load the schema file again/),
    });
  });
});
