// Child process for tests/security/slowlog-crash.test.ts: opens a slow-log window and holds it until killed.
// Input (environment): SARGABLE_CHILD_URL (admin URL of a throwaway server), SARGABLE_CHILD_JOURNAL.
import { connect, resolveTarget } from '../../../src/main/services/connection.js';
import { detectServerInfo } from '../../../src/main/services/server-info.js';
import { withSlowLogWindow } from '../../../src/main/services/slowlog-window.js';

const url = new URL(process.env.SARGABLE_CHILD_URL ?? '');
const target = resolveTarget({
  host: url.hostname,
  port: Number(url.port),
  user: decodeURIComponent(url.username),
  password: decodeURIComponent(url.password),
});
const probe = await connect(target, { readOnly: true });
const server = await detectServerInfo(probe);
await probe.end();
await withSlowLogWindow(
  target,
  server,
  { consent: true, longQueryTime: 0, journalPath: process.env.SARGABLE_CHILD_JOURNAL ?? '' },
  async () => {
    process.stdout.write('WINDOW OPEN\n');
    // Hold the window until the parent kills this process with SIGKILL.
    await new Promise(() => undefined);
  },
);
