// Child process for tests/security/journal-lock.test.ts: hammers the slow-log window journal.
// Input (environment): SARGABLE_CHILD_JOURNAL, SARGABLE_CHILD_MODE ('record' | 'claim'),
// SARGABLE_CHILD_COUNT, SARGABLE_CHILD_GO (a file to wait for, so both children start together; the
// child exits when `<GO>.exit` exists).
// Output: one JSON line, the ids recorded or claimed.
import fs from 'node:fs';
import { claimUnfinishedWindows, recordWindow } from '../../../src/main/services/slowlog-journal.js';

const journal = process.env.SARGABLE_CHILD_JOURNAL ?? '';
const count = Number(process.env.SARGABLE_CHILD_COUNT ?? '0');
const go = process.env.SARGABLE_CHILD_GO ?? '';
process.stdout.write('READY\n');
while (!fs.existsSync(go)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);

const ids: string[] = [];
for (let index = 0; index < count; index += 1) {
  if (process.env.SARGABLE_CHILD_MODE === 'record') {
    ids.push(
      recordWindow(journal, {
        host: `child-${process.pid}`,
        port: index,
        serverIdentity: `child-${process.pid}:${index}`,
        previous: { slow_query_log: 'OFF', long_query_time: '10', log_output: 'FILE' },
        during: { slow_query_log: 'ON', long_query_time: '0', log_output: 'FILE' },
      }),
    );
  } else {
    // One window per call, as one connect restores the windows of one server.
    let taken = false;
    const claimed = claimUnfinishedWindows(journal, () => (taken ? false : (taken = true)));
    ids.push(...claimed.map((entry) => entry.id));
  }
}
process.stdout.write(`${JSON.stringify(ids)}\n`);
// Stay alive until the parent says so: a claimer that exits hands its claims back (its pid is dead).
const exit = `${go}.exit`;
while (!fs.existsSync(exit)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
