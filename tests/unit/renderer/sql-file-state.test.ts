// The SQL file panel's state (renderer/state/sql-file.ts): the reducer (progress never goes back, a
// cancel during the upload says nothing was analysed, a job's end becomes done / failed), and the
// texts the panel shows.
import { describe, expect, it } from 'vitest';
import type { SqlFileReply } from '../../../src/shared/api/sql-file.js';
import {
  bytesText,
  count,
  finalSqlFileAction,
  initialSqlFile,
  sqlFileReducer,
  type SqlFileState,
} from '../../../src/renderer/state/sql-file.js';

const reply: SqlFileReply = {
  analysisId: 'sqlfile:1',
  name: 'dump.sql',
  totalBytes: 100,
  bytesRead: 40,
  complete: false,
  elapsedMs: 10,
  server: { flavor: 'mysql', version: '8.0.33', source: 'flags' },
  statements: 3,
  findings: 1,
  rules: [],
  errorCount: 0,
  errors: [],
};

const progress = (bytesRead: number, statements: number) => ({
  type: 'progress' as const,
  bytesRead,
  totalBytes: 100,
  statements,
  findings: statements,
  errors: 0,
});

describe('sqlFileReducer', () => {
  it('runs from start to done; progress that arrives late never moves the counts back', () => {
    let state: SqlFileState = sqlFileReducer(initialSqlFile, { type: 'start', name: 'dump.sql' });
    state = sqlFileReducer(state, { type: 'job', jobId: 'j1' });
    state = sqlFileReducer(state, progress(50, 5));
    state = sqlFileReducer(state, progress(30, 3));
    expect(state).toMatchObject({
      status: 'running',
      jobId: 'j1',
      bytesRead: 50,
      statements: 5,
      findings: 5,
    });
    state = sqlFileReducer(state, { type: 'done', reply });
    expect(state).toEqual({ status: 'done', reply });
    // A progress event after the end changes nothing.
    expect(sqlFileReducer(state, progress(90, 9))).toBe(state);
  });

  it('a cancel during the upload: cancelled, nothing analysed; a failure keeps the file name', () => {
    const uploading = sqlFileReducer(initialSqlFile, { type: 'upload', name: 'big.sql', sent: 1, total: 9 });
    expect(sqlFileReducer(uploading, { type: 'cancelled' })).toEqual({
      status: 'cancelled',
      name: 'big.sql',
    });
    const failed = sqlFileReducer(sqlFileReducer(initialSqlFile, { type: 'start', name: 'x.bin' }), {
      type: 'failed',
      error: { code: 'INVALID_INPUT', message: 'x.bin is not a text file' },
    });
    expect(failed).toMatchObject({ status: 'failed', name: 'x.bin', error: { code: 'INVALID_INPUT' } });
    expect(sqlFileReducer(failed, { type: 'clear' })).toEqual(initialSqlFile);
  });

  it("a job's final status: a cancelled job ends done with what was read; a failed one carries its error", () => {
    const base = { jobId: 'j', kind: 'sql-file', progress: { elapsedMs: 1 } };
    expect(finalSqlFileAction({ ...base, state: 'done', result: reply })).toEqual({ type: 'done', reply });
    expect(
      finalSqlFileAction({
        ...base,
        state: 'failed',
        error: { code: 'NOT_FOUND', message: 'gone', hint: 'choose again' },
      }),
    ).toEqual({ type: 'failed', error: { code: 'NOT_FOUND', message: 'gone', hint: 'choose again' } });
    expect(finalSqlFileAction(null)).toEqual({ type: 'cancelled' });
  });

  it('texts', () => {
    expect(bytesText(0, 0)).toBe('starting…');
    expect(bytesText(327_155_712, 1_073_741_824)).toBe('312.0 of 1,024.0 MB (30%)');
    expect(count(1, 'statement')).toBe('1 statement');
    expect(count(12_345, 'finding')).toBe('12,345 findings');
  });
});
