// The history API through dispatch (as IPC and the web bridge call it): validation, settings round trip, clear's guard.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../src/main/dispatch.js';
import { createHandlers } from '../../../src/main/handlers/index.js';
import { ConnectionService } from '../../../src/main/services/connection.js';
import { HistoryService } from '../../../src/main/services/history.js';
import { HISTORY_FILE } from '../../../src/main/services/history-db.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sargable-history-api-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function api(withHistory = true) {
  const handlers = createHandlers({
    connections: new ConnectionService(),
    app: { name: 'Sargable', version: 'test', mode: 'web' },
    userDataDir: dir,
    ...(withHistory ? { history: new HistoryService(path.join(dir, HISTORY_FILE)) } : {}),
  });
  return (method: string, request: unknown) => dispatch(handlers, method, request);
}

describe('history API', () => {
  it('settings: defaults, a patch, the file; invalid values refused', async () => {
    const call = api();
    expect(await call('history.settings', {})).toEqual({
      ok: true,
      value: {
        enabled: true,
        retentionDays: 90,
        maxWindows: 1000,
        samples: { production: 'placeholders', other: 'full' },
        file: path.join(dir, HISTORY_FILE),
      },
    });
    const set = await call('history.setSettings', { retentionDays: 7, samples: { other: 'none' } });
    expect(set).toMatchObject({
      ok: true,
      value: {
        retentionDays: 7,
        maxWindows: 1000,
        samples: { production: 'placeholders', other: 'none' },
        pruned: 0,
      },
    });
    expect(await call('history.settings', {})).toMatchObject({
      value: { retentionDays: 7, samples: { other: 'none' } },
    });
    for (const bad of [
      { retentionDays: -1 },
      { samples: { production: 'everything' } },
      { maxWindows: 1.5 },
    ]) {
      expect(await call('history.setSettings', bad)).toMatchObject({
        ok: false,
        error: { code: 'INVALID_INPUT' },
      });
    }
  });

  it('clear needs a scope or all: true; trends of an empty history are empty; unknown ids are NOT_FOUND', async () => {
    const call = api();
    expect(await call('history.clear', {})).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await call('history.clear', { all: true })).toEqual({ ok: true, value: { windowsDeleted: 0 } });
    expect(await call('history.trends', {})).toEqual({ ok: true, value: { windows: [], classes: [] } });
    expect(await call('history.trends', { windowId: 5 })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect(await call('history.class', { classId: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect(await call('history.windows', { source: 'disk' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
    expect(await call('history.windows', { since: 'yesterday' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
  });

  it('without a history service the methods say so', async () => {
    expect(await api(false)('history.windows', {})).toMatchObject({
      ok: false,
      error: { code: 'UNSUPPORTED' },
    });
  });
});
