// The SET GLOBAL plan of a slow-log window and its exact restore.
import { describe, expect, it } from 'vitest';
import { planSlowLogWindow, withTableOutput } from '../../../src/core/capture/index.js';

describe('planSlowLogWindow', () => {
  it('turns everything on and restores in reverse order (MySQL 8 defaults)', () => {
    const plan = planSlowLogWindow(
      { slow_query_log: 'OFF', long_query_time: '10.000000', log_output: 'FILE', log_slow_extra: 'OFF' },
      { logSlowExtra: true },
      { longQueryTime: 0 },
    );
    expect(plan).toEqual({
      apply: [
        "SET GLOBAL log_output = 'FILE,TABLE'",
        'SET GLOBAL long_query_time = 0',
        'SET GLOBAL log_slow_extra = ON',
        'SET GLOBAL slow_query_log = ON',
      ],
      restore: [
        'SET GLOBAL slow_query_log = OFF',
        'SET GLOBAL log_slow_extra = OFF',
        'SET GLOBAL long_query_time = 10',
        "SET GLOBAL log_output = 'FILE'",
      ],
      during: {
        slow_query_log: 'ON',
        long_query_time: '0.000000',
        log_output: 'FILE,TABLE',
        log_slow_extra: 'ON',
      },
    });
  });

  it('leaves settings that are already right alone, and skips log_slow_extra on MariaDB', () => {
    const plan = planSlowLogWindow(
      { slow_query_log: 'ON', long_query_time: '0.500000', log_output: 'TABLE' },
      { logSlowExtra: false },
      { longQueryTime: 0.5 },
    );
    expect([plan.apply, plan.restore]).toEqual([[], []]);
  });

  it('rejects a negative long_query_time', () => {
    expect(() =>
      planSlowLogWindow(
        { slow_query_log: 'OFF', long_query_time: '10', log_output: 'FILE' },
        { logSlowExtra: false },
        { longQueryTime: -1 },
      ),
    ).toThrow(RangeError);
  });

  it('adds TABLE to log_output', () => {
    expect(['FILE', 'NONE', 'TABLE,FILE', 'file'].map((v) => withTableOutput(v))).toEqual([
      'FILE,TABLE',
      'TABLE',
      'FILE,TABLE',
      'FILE,TABLE',
    ]);
  });
});
