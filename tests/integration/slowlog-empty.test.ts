// An empty mysql.slow_log read says why (log_output=FILE, slow log off) and how to switch, on both servers.
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/main/handlers/index.js';
import { ConnectionService } from '../../src/main/services/connection.js';
import { emptySlowLogNote } from '../../src/renderer/state/top-runs.js';
import { connect } from '../support/db.js';
import { flavors, startServer, type TestServer } from '../support/servers.js';

// Own servers: the test changes the global slow-log settings.
describe.each(flavors)('mysql.slow_log read with nothing in it: %s', (flavor) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(flavor);
  });
  afterAll(async () => server?.stop());

  async function readTable() {
    const connections = new ConnectionService();
    const api = createHandlers({ connections, app: { name: 'Sargable', version: 'test', mode: 'web' } });
    const { connectionId } = await connections.openConnection({ dsn: server.readOnlyUrl });
    try {
      return await api['capture.slowLogTable']({ connectionId });
    } finally {
      await connections.closeAll();
    }
  }

  it('names log_output=FILE and slow_query_log=OFF, the file, and the statements that switch', async () => {
    const reply = await readTable();
    expect(reply.global.events).toBe(0);
    const admin = await connect(server.url);
    try {
      const [rows] = await admin.query<RowDataPacket[]>('SELECT @@GLOBAL.slow_query_log_file AS file');
      expect(reply.logging).toEqual({
        slowQueryLog: false,
        logOutput: 'FILE',
        longQueryTime: 10,
        file: rows[0]!.file,
      });
      const note = emptySlowLogNote(reply.logging!);
      expect(note.message).toContain('log_output=FILE');
      expect(note.message).toContain('slow_query_log=OFF');
      expect(note.hint).toContain(String(rows[0]!.file));
      // The advice is what the server needs: after it, statements land in mysql.slow_log.
      for (const statement of note.hint!.match(/SET GLOBAL [^;]+;/g) ?? []) await admin.query(statement);
      await admin.query('SET GLOBAL long_query_time = 0');
      const worker = await connect(server.url);
      await worker.query('SELECT 1 AS now_logged');
      await worker.end();
      const after = await readTable();
      expect(after.global.events).toBeGreaterThan(0);
      expect(after.logging).toBeUndefined();
    } finally {
      await admin.end();
    }
  });
});
