// Loading a schema file from the Work offline form (renderer/state/schema-file.ts): the reducer, and
// the hook against the real handlers in process (a file under an allowed folder, the job's events).
// @vitest-environment happy-dom
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';
import { createEventHandlers } from '../../../src/main/events.js';
import { createHandlers } from '../../../src/main/handlers/index.js';
import { CaptureService } from '../../../src/main/services/capture-jobs.js';
import { ConnectionService } from '../../../src/main/services/connection.js';
import { FileGrants } from '../../../src/main/services/file-grants.js';
import type { SchemaFileReply } from '../../../src/shared/api/schema.js';
import { createListen, localEventTransport } from '../../../src/shared/events.js';
import {
  finalAction,
  initialSchemaFile,
  loadedText,
  progressText,
  schemaFileReducer,
  useSchemaFile,
} from '../../../src/renderer/state/schema-file.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-schema-file-hook-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(cleanup);

const reply = (over: Partial<SchemaFileReply> = {}): SchemaFileReply => ({
  schemaId: 'schema:1',
  name: 'dump.sql',
  flavor: 'mysql',
  version: '8.0.33',
  bytes: 10,
  tables: 3,
  views: 1,
  sequences: 0,
  ignored: 5,
  skippedCount: 0,
  skipped: [],
  partialCount: 0,
  ...over,
});

describe('schemaFileReducer', () => {
  it('goes idle → loading → (progress) → loaded, and ignores late actions after a clear', () => {
    let state = schemaFileReducer(initialSchemaFile, { type: 'start', name: 'dump.sql' });
    expect(state).toMatchObject({ status: 'loading', jobId: null });
    state = schemaFileReducer(state, { type: 'job', jobId: 'j1' });
    state = schemaFileReducer(state, { type: 'progress', bytesRead: 5, totalBytes: 10 });
    expect(state).toMatchObject({ status: 'loading', jobId: 'j1', bytesRead: 5, totalBytes: 10 });
    state = schemaFileReducer(state, { type: 'loaded', file: reply() });
    expect(state).toEqual({ status: 'loaded', file: reply() });
    state = schemaFileReducer(state, { type: 'clear' });
    expect(schemaFileReducer(state, { type: 'progress', bytesRead: 9, totalBytes: 10 })).toBe(state);
    expect(schemaFileReducer(state, { type: 'loaded', file: reply() })).toBe(state);
  });

  it('web mode: uploading (with progress) comes first; a cancel or failure there ends it', () => {
    let state = schemaFileReducer(initialSchemaFile, { type: 'upload', name: 'big.sql', sent: 0, total: 10 });
    state = schemaFileReducer(state, { type: 'upload', name: 'big.sql', sent: 4, total: 10 });
    expect(state).toEqual({ status: 'uploading', name: 'big.sql', sent: 4, total: 10 });
    expect(schemaFileReducer(state, { type: 'cancelled' })).toEqual({ status: 'cancelled', name: 'big.sql' });
    const error = { code: 'INVALID_INPUT', message: 'too big' };
    expect(schemaFileReducer(state, { type: 'failed', error })).toEqual({
      status: 'failed',
      name: 'big.sql',
      error,
    });
    // Then the service reads the uploaded copy: loading, and a late upload event changes nothing.
    const loading = schemaFileReducer(state, { type: 'start', name: 'big.sql' });
    expect(loading.status).toBe('loading');
    expect(schemaFileReducer(loading, { type: 'upload', name: 'big.sql', sent: 10, total: 10 })).toBe(
      loading,
    );
  });

  it('maps a job’s final status: done, failed with its message, cancelled', () => {
    const base = { jobId: 'j', kind: 'schema-load', progress: { elapsedMs: 1 } };
    expect(finalAction({ ...base, state: 'done', result: reply() })).toEqual({
      type: 'loaded',
      file: reply(),
    });
    expect(
      finalAction({
        ...base,
        state: 'failed',
        error: { code: 'PARSE_FAILED', message: 'no table', hint: 'h' },
      }),
    ).toEqual({ type: 'failed', error: { code: 'PARSE_FAILED', message: 'no table', hint: 'h' } });
    expect(finalAction({ ...base, state: 'cancelled' })).toEqual({ type: 'cancelled' });
    expect(finalAction(null)).toEqual({ type: 'cancelled' });
  });

  it('says what was loaded and how far it is', () => {
    expect(loadedText(reply({ tables: 1, views: 2, sequences: 1, skippedCount: 3 }))).toBe(
      '1 table, 2 views, 1 sequence, skipped 3',
    );
    expect(progressText(1_048_576, 4 * 1_048_576)).toBe('1.0 of 4.0 MB (25%)');
    expect(progressText(0, 0)).toBe('starting…');
  });
});

describe('useSchemaFile with the real handlers', () => {
  function setup() {
    const services = {
      connections: new ConnectionService(),
      capture: new CaptureService(),
      app: { name: 'Sargable', version: 'test', mode: 'web' as const },
      userDataDir: path.join(dir, 'userdata'),
      files: new FileGrants({ roots: [dir] }),
    };
    const api = createHandlers(services);
    const listen = createListen(localEventTransport(createEventHandlers(services)));
    return { api, listen };
  }

  it('loads a dump from disk and analyses use it by id', async () => {
    const { api, listen } = setup();
    const file = path.join(dir, 'sakila.sql');
    writeFileSync(file, readFileSync('tests/fixtures/schemas/dumps/mysql/sakila-mysqldump-data.sql'));
    const { result } = renderHook(() => useSchemaFile(api, listen, undefined));
    await act(() => result.current.load({ ref: file, name: 'sakila.sql' }, 'mysql', '8.0.33'));
    await waitFor(() => expect(result.current.state.status).toBe('loaded'));
    const state = result.current.state;
    if (state.status !== 'loaded') throw new Error('not loaded');
    const expected = schemaFromDdl(readFileSync(file, 'utf8'), 'mysql').summary;
    expect(state.file).toMatchObject({
      name: 'sakila.sql',
      tables: expected.tables,
      views: expected.views,
      skippedCount: 0,
    });
    expect(state.file.tables).toBe(16);
    const report = await api['analyze.run']({
      sql: 'SELECT * FROM film WHERE YEAR(last_update) = 2006',
      target: { flavor: 'mysql', version: '8.0.33' },
      schemaId: state.file.schemaId,
    });
    expect(report.schemaLoad?.tables).toBe(16);
    expect(report.statements[0]!.findings.map((finding) => finding.rule)).toContain('FUN001');
  });

  it('a file outside the allowed folder fails with FORBIDDEN', async () => {
    const { api, listen } = setup();
    const { result } = renderHook(() => useSchemaFile(api, listen, undefined));
    await act(() => result.current.load({ ref: '/etc/passwd', name: 'passwd' }, 'mysql', '8.0.33'));
    expect(result.current.state).toMatchObject({ status: 'failed', error: { code: 'FORBIDDEN' } });
  });
});
