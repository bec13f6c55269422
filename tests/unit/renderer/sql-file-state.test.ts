// The SQL file panel's state (renderer/state/sql-file.ts): the reducer (progress never goes back, a
// cancel during the upload says nothing was analysed, a job's end becomes done / failed), the texts
// the panel shows, and the hook against the real handlers in process (a file under an allowed folder).
// @vitest-environment happy-dom
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createEventHandlers } from '../../../src/main/events.js';
import { createHandlers } from '../../../src/main/handlers/index.js';
import type { Services } from '../../../src/main/services/index.js';
import { CaptureService } from '../../../src/main/services/capture-jobs.js';
import { ConnectionService } from '../../../src/main/services/connection.js';
import { FileGrants } from '../../../src/main/services/file-grants.js';
import { createListen, localEventTransport } from '../../../src/shared/events.js';
import type { SqlFileReply } from '../../../src/shared/api/sql-file.js';
import {
  bytesText,
  count,
  finalSqlFileAction,
  initialSqlFile,
  sqlFileReducer,
  useSqlFile,
  type SqlFileState,
} from '../../../src/renderer/state/sql-file.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-sql-file-hook-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(cleanup);

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

describe('useSqlFile with the real handlers', () => {
  function setup() {
    const services: Services = {
      connections: new ConnectionService(),
      capture: new CaptureService(),
      app: { name: 'Sargable', version: 'test', mode: 'web' },
      files: new FileGrants({ roots: [dir] }),
    };
    const api = createHandlers(services);
    const listen = createListen(localEventTransport(createEventHandlers(services)));
    return { api, listen, services };
  }

  it("analyses a file with the session schema and rules; a finding's statement opens", async () => {
    const { api, listen, services } = setup();
    const file = path.join(dir, 'queries.sql');
    writeFileSync(
      file,
      "SELECT * FROM orders WHERE DATE(created) = CURDATE();\n-- note\nSELECT * FROM orders\n  WHERE YEAR(created) = 2024;\nSELECT id FROM orders WHERE note LIKE '%x';\n",
    );
    const { result } = renderHook(() => useSqlFile(api, listen));
    await act(() =>
      result.current.analyse(
        { ref: file, name: 'queries.sql' },
        {
          target: { flavor: 'mysql', version: '8.0.33' },
          schemaSql:
            'CREATE TABLE orders (id INT PRIMARY KEY, created DATETIME, note VARCHAR(20), KEY (created), KEY (note));',
          disabledRules: ['LIK001'],
        },
      ),
    );
    await waitFor(() => expect(result.current.state.status).toBe('done'));
    const state = result.current.state;
    if (state.status !== 'done') throw new Error('not done');
    expect(state.reply).toMatchObject({ name: 'queries.sql', statements: 3, complete: true });
    const fun = state.reply.rules.find((group) => group.rule === 'FUN001')!;
    expect(fun.findings.map((finding) => [finding.line, finding.excerpt])).toEqual([
      [1, 'SELECT * FROM orders WHERE DATE(created) = CURDATE()'],
      [4, 'SELECT * FROM orders WHERE YEAR(created) = 2024'],
    ]);
    // The disabled rule was not run (its canary, the leading-wildcard LIKE, is in the file).
    expect(state.reply.rules.map((group) => group.rule)).toEqual(['FUN001']);
    expect((await result.current.statement(1)).sql).toBe(
      '-- note\nSELECT * FROM orders\n  WHERE YEAR(created) = 2024',
    );
    services.sqlFiles?.disposeAll();
  });

  it('a file outside the allowed folder fails with FORBIDDEN, and nothing is analysed', async () => {
    const { api, listen } = setup();
    const { result } = renderHook(() => useSqlFile(api, listen));
    await act(() => result.current.analyse({ ref: '/etc/passwd', name: 'passwd' }, {}));
    expect(result.current.state).toMatchObject({
      status: 'failed',
      name: 'passwd',
      error: { code: 'FORBIDDEN' },
    });
  });
});
