// sqlFile.analyze on a live connection, on both servers: the file's statements are analysed against the
// server's own schema and version (what analyze.run on the same connection reports for the same text),
// streamed as a job.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/main/handlers/index.js';
import { CaptureService } from '../../src/main/services/capture-jobs.js';
import { ConnectionService } from '../../src/main/services/connection.js';
import { FileGrants } from '../../src/main/services/file-grants.js';
import type { Services } from '../../src/main/services/index.js';
import type { SqlFileReply } from '../../src/shared/api/sql-file.js';
import { testServers, withScratchDatabase } from '../support/db.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-sqlfile-live-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SQL = [
  'SELECT id FROM orders WHERE YEAR(created) = 2024;',
  "SELECT id FROM orders WHERE note LIKE '%late';",
  'SELECT id FROM orders WHERE customer_id + 1 = 10;',
  'SELECT id FROM no_such_table WHERE DATE(at) = CURDATE();',
  "UPDATE orders SET note = 'x' WHERE LOWER(note) = 'y';",
  'SELECT id FROM orders WHERE note = 5;',
].join('\n');

describe.each(testServers())('sqlFile.analyze on a live $flavor connection', ({ url }) => {
  it('analyses the file against the live schema: the findings analyze.run gives for the same text', async () => {
    await withScratchDatabase(url, async (connection, database) => {
      await connection.query(
        'CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT NOT NULL, note VARCHAR(100), created DATETIME NOT NULL, KEY idx_customer (customer_id), KEY idx_created (created), KEY idx_note (note))',
      );
      const files = new FileGrants();
      const capture = new CaptureService();
      const services: Services = {
        connections: new ConnectionService(),
        capture,
        files,
        app: { name: 'Sargable', version: 'test', mode: 'web' },
      };
      const api = createHandlers(services);
      const { connectionId, server } = await api['connection.open']({
        dsn: `${url.replace(/\/$/, '')}/${database}`,
      });
      try {
        const file = path.join(dir, `${database}.sql`);
        writeFileSync(file, `${SQL}\n`);
        const { jobId } = await api['sqlFile.analyze']({
          ref: files.grant(file, 'read', 'live.sql'),
          connectionId,
        });
        await capture.watchJob(jobId, () => undefined);
        const status = await api['job.status']({ jobId });
        expect(status.state, JSON.stringify(status.error)).toBe('done');
        const reply = status.result as SqlFileReply;
        expect(reply.server).toEqual({ flavor: server.flavor, version: server.version, source: 'dsn' });
        expect(reply.statements).toBe(6);

        const report = await api['analyze.run']({ sql: SQL, connectionId });
        const expected = report.statements
          .flatMap((statement) =>
            statement.findings.map(
              (finding) => `${finding.rule}@${finding.line}:${finding.column} ${finding.message}`,
            ),
          )
          .sort();
        const actual = reply.rules
          .flatMap((group) =>
            group.findings.map(
              (finding) => `${finding.rule}@${finding.line}:${finding.column} ${finding.message}`,
            ),
          )
          .sort();
        expect(actual).toEqual(expected);
        // The live schema is what the file was checked against: the known table's functions are
        // findings, and the table the server does not have is said to be unknown.
        // The live schema is what the file was checked against: only the server's column type says
        // `note = 5` converts every row (CNV001; without a schema it is no finding).
        expect(actual).toContainEqual(
          expect.stringMatching(/^CNV001@6:29 note is a VARCHAR column compared with the number 5/),
        );
        expect(actual.some((line) => line.startsWith('FUN001@1:29'))).toBe(true);
      } finally {
        await api['connection.close']({ connectionId });
        services.sqlFiles?.disposeAll();
      }
    });
  });
});
