// `sargable capture --enable-slow-log`: the window runs as a job, its progress lines come from the job's events,
// the settings are restored and the window's statements digested (own throwaway servers: it sets globals).
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../support/db.js';
import { runCliCaptured } from '../support/cli.js';
import { startServer, type Flavor, type TestServer } from '../support/servers.js';
import { waitFor } from '../support/wait.js';

describe.each(['mysql', 'mariadb'] as Flavor[])('capture --enable-slow-log on %s (own server)', (flavor) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(flavor);
  });
  afterAll(async () => server?.stop());

  it('--progress prints the window from the job events; settings are restored; the workload is digested', async () => {
    const admin = await connect(server.url);
    try {
      const [before] = await admin.query<RowDataPacket[]>(
        'SELECT @@GLOBAL.slow_query_log AS s, @@GLOBAL.long_query_time AS l, @@GLOBAL.log_output AS o',
      );
      // Letters only: the fingerprint turns digits in names into ?.
      const tag = `sargable_window_${Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;
      const running = runCliCaptured(
        [
          'capture',
          '--dsn',
          server.url,
          '--enable-slow-log',
          '--allow-write',
          '--window',
          '3',
          '--progress',
          '--format',
          'json',
        ],
        { cwd: '.' },
      );
      expect(Number(before[0]?.s)).toBe(0);
      // A workload inside the window (a new connection picks up long_query_time = 0). The window has
      // begun once slow_query_log is ON, the last setting it applies (a fixed 1.2 s raced with it).
      await waitFor(
        'the window to apply its settings',
        async () => {
          const [rows] = await admin.query<RowDataPacket[]>('SELECT @@GLOBAL.slow_query_log AS s');
          return Number(rows[0]?.s) === 1;
        },
        30_000,
        20,
      );
      const worker = await connect(server.url);
      for (let i = 0; i < 5; i++) await worker.query(`SELECT ${i} AS ${tag}`);
      await worker.end();
      const result = await running;
      expect(result.code).toBe(0);
      const lines = result.stderr.split('\n').filter((line) => line.startsWith('slow-log window:'));
      expect(lines.length).toBeGreaterThanOrEqual(2);
      expect(lines.at(-1)).toMatch(/^slow-log window: [23] s of 3 s$/);
      expect(result.stderr).toContain('Restored:');
      const report = JSON.parse(result.stdout) as { classes: { fingerprint: string; count: number }[] };
      const ours = report.classes.find((entry) => entry.fingerprint.includes(tag));
      expect(ours?.count).toBe(5);
      const [after] = await admin.query<RowDataPacket[]>(
        'SELECT @@GLOBAL.slow_query_log AS s, @@GLOBAL.long_query_time AS l, @@GLOBAL.log_output AS o',
      );
      expect(after[0]).toEqual(before[0]);
    } finally {
      await admin.end();
    }
  });
});
