// mysql.slow_log rows become the same digest classes as the equivalent slow-log file.
import { describe, expect, it } from 'vitest';
import { slowLogRowToEvent, timeToSeconds, type SlowLogTableRow } from '../../../src/core/capture/index.js';
import { createDigest, parseSlowLog } from '../../../src/core/slowlog/index.js';

const rows: SlowLogTableRow[] = [
  {
    startTime: '1795306774.537768',
    userHost: 'app[app] @ localhost [127.0.0.1]',
    queryTime: '00:00:01.500000',
    lockTime: '00:00:00.000120',
    rowsSent: '1',
    rowsExamined: '1000',
    db: 'shop',
    threadId: '12',
    sqlText: 'SELECT * FROM orders WHERE id = 5',
  },
  {
    startTime: '1795306775.000001',
    userHost: 'app[app] @ localhost [127.0.0.1]',
    queryTime: '00:00:00.250000',
    lockTime: '00:00:00.000000',
    rowsSent: '1',
    rowsExamined: '10',
    rowsAffected: '0',
    db: 'shop',
    threadId: '12',
    sqlText: 'SELECT * FROM orders WHERE id = 7',
  },
];

// The same two statements as MySQL 8 writes them to a slow-log file.
const file = `# Time: 2026-11-22T00:19:34.537768Z
# User@Host: app[app] @ localhost [127.0.0.1]  Id:    12
# Query_time: 1.500000  Lock_time: 0.000120 Rows_sent: 1  Rows_examined: 1000
use shop;
SET timestamp=1795306774;
SELECT * FROM orders WHERE id = 5;
# Time: 2026-11-22T00:19:35.000001Z
# User@Host: app[app] @ localhost [127.0.0.1]  Id:    12
# Query_time: 0.250000  Lock_time: 0.000000 Rows_sent: 1  Rows_examined: 10 Rows_affected: 0
SET timestamp=1795306775;
SELECT * FROM orders WHERE id = 7;
`;

describe('slowLogRowToEvent', () => {
  it('digests table rows exactly like the equivalent file', () => {
    const fromTable = createDigest();
    rows.forEach((r, i) => fromTable.add(slowLogRowToEvent(r, i + 1)));
    const fromFile = createDigest();
    for (const event of parseSlowLog(file).events) fromFile.add(event);
    const strip = (result: ReturnType<typeof fromFile.result>) =>
      result.classes.map(({ example: { line: _line, ...example }, ...c }) => ({ ...c, example }));
    expect(strip(fromTable.result())).toEqual(strip(fromFile.result()));
    expect(fromTable.result().classes[0]).toMatchObject({
      queryCount: 2,
      schemas: ['shop'],
      users: ['app'],
      hosts: ['localhost'],
    });
  });

  it('turns command names into administrator commands, as a file has them', () => {
    const quit = slowLogRowToEvent({ ...rows[0]!, sqlText: 'Quit' }, 3);
    const select = slowLogRowToEvent({ ...rows[0]!, sqlText: 'Quit it' }, 4);
    expect([quit.query, quit.admin, select.query, select.admin]).toEqual([
      'administrator command: Quit',
      true,
      'Quit it',
      false,
    ]);
  });

  it('converts TIME(6) values, including hours past 24', () => {
    expect(['00:00:01.5', '838:59:59.000000', '00:00:00', 'junk'].map(timeToSeconds)).toEqual([
      '1.500000',
      '3020399.000000',
      '0.000000',
      'junk',
    ]);
  });
});
