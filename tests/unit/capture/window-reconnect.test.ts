// captureDigestWindow: polls, adds up per-interval deltas, and goes on after a lost connection (a server restart) through `reconnect`.
import type { Connection } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';
import { captureDigestWindow } from '../../../src/main/services/capture.js';

/** What the server shows at each snapshot; `lost` makes that snapshot's first query fail. */
interface Step {
  now: number;
  uptime: number;
  count: number;
  firstSeen: number;
  lost?: boolean;
}

/** A connection answering the capture's queries from `steps` (one step per snapshot, shared). */
function fakeConnection(steps: Step[], cursor: { snapshot: number }): Connection {
  let step = steps[0]!;
  return {
    async query(sql: string) {
      if (sql.includes('UNIX_TIMESTAMP(NOW(6))')) {
        step = steps[Math.min(cursor.snapshot, steps.length - 1)]!;
        cursor.snapshot++;
        if (step.lost) {
          step.lost = false; // the next connection's try sees the restarted server
          cursor.snapshot--;
          throw Object.assign(new Error('Connection lost: The server closed the connection.'), {
            fatal: true,
            code: 'PROTOCOL_CONNECTION_LOST',
          });
        }
        return [[{ now_epoch: step.now, uptime: step.uptime, digest_lost: 0, executions: 0 }]];
      }
      if (sql.includes('FROM performance_schema.events_statements_summary_by_digest ORDER BY'))
        return [
          [
            {
              SCHEMA_NAME: 'app',
              DIGEST: 'd1',
              COUNT_STAR: step.count,
              SUM_TIMER_WAIT: step.count * 1e9,
              FIRST_SEEN_EPOCH: step.firstSeen,
              LAST_SEEN_EPOCH: step.now,
              MAX_TIMER_WAIT: 1e9,
            },
          ],
        ];
      if (sql.includes('DIGEST_TEXT'))
        return [[{ SCHEMA_NAME: 'app', DIGEST: 'd1', DIGEST_TEXT: 'SELECT * FROM `t` WHERE `id` = ?' }]];
      return [[]];
    },
  } as unknown as Connection;
}

describe('captureDigestWindow', () => {
  const server = offlineServerInfo('mysql', '8.0.33');

  it('a restart mid-window: reconnects, keeps the activity before it and counts the activity since', async () => {
    const steps: Step[] = [
      { now: 1000, uptime: 500, count: 10, firstSeen: 900 },
      { now: 1001, uptime: 501, count: 14, firstSeen: 900 }, // 4 statements
      { now: 1007, uptime: 2, count: 3, firstSeen: 1006, lost: true }, // restarted; 3 since
    ];
    const cursor = { snapshot: 0 };
    let reconnects = 0;
    const delta = await captureDigestWindow(fakeConnection(steps, cursor), server, 0.5, {
      pollSeconds: 0.1,
      reconnect: async () => {
        reconnects++;
        return fakeConnection(steps, cursor);
      },
    });
    expect(reconnects).toBe(1);
    expect(delta.classes.map((c) => [c.digest, c.count, c.status])).toEqual([['d1', 4 + 3, 'reset']]);
    expect(delta.serverRestarted).toBe(true);
    expect(delta.notes.map((n) => n.code)).toContain('server-restarted');
  });

  it('without reconnect, a lost connection fails the capture', async () => {
    const steps: Step[] = [
      { now: 1000, uptime: 500, count: 10, firstSeen: 900 },
      { now: 1001, uptime: 501, count: 14, firstSeen: 900, lost: true },
    ];
    await expect(
      captureDigestWindow(fakeConnection(steps, { snapshot: 0 }), server, 0.3, { pollSeconds: 0.1 }),
    ).rejects.toThrow(/closed the connection|lost/i);
  });
});
