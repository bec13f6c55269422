// Workspace store: default locations, atomic save, and never overwriting a corrupt or newer file.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyWorkspace } from '../../../src/core/workspace/model.js';
import {
  defaultWorkspacePath,
  loadOrCreateWorkspace,
  loadWorkspace,
  saveWorkspace,
} from '../../../src/main/services/workspace-store.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-ws-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('workspace store', () => {
  it('default paths: userData, XDG_CONFIG_HOME, then ~/.config; profile ids become safe file names', () => {
    expect([
      defaultWorkspacePath('prod db/1', { userDataDir: '/u' }),
      defaultWorkspacePath('p', { env: { XDG_CONFIG_HOME: '/x' } }),
      defaultWorkspacePath('../p', { env: {}, homedir: '/h' }),
    ]).toEqual([
      path.join('/u', 'workspaces', 'prod_db_1.sargable.json'),
      path.join('/x', 'sargable', 'workspaces', 'p.sargable.json'),
      path.join('/h', '.config', 'sargable', 'workspaces', '__p.sargable.json'),
    ]);
  });

  it('saves atomically (no temp file left) and loads back; a missing file gives an empty workspace', async () => {
    const file = path.join(tempDir(), 'nested', 'w.sargable.json');
    const created = await loadOrCreateWorkspace(file, { id: 'p' }, new Date('2025-01-01T00:00:00Z'));
    await saveWorkspace(file, created.workspace, new Date('2025-01-02T00:00:00Z'));
    expect(readdirSync(path.dirname(file))).toEqual(['w.sargable.json']);
    expect((await loadWorkspace(file)).workspace).toEqual({
      ...created.workspace,
      savedAt: '2025-01-02T00:00:00.000Z',
    });
    await expect(loadWorkspace(path.join(tempDir(), 'none.json'))).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it.each([
    ['corrupt', '{"version": 2, "items": [', 'INVALID_INPUT'],
    ['newer', '{"format": "sargable-workspace", "version": 7}', 'UNSUPPORTED'],
  ])('a %s file is reported and never overwritten', async (_name, content, code) => {
    const file = path.join(tempDir(), 'w.sargable.json');
    writeFileSync(file, content);
    await expect(loadWorkspace(file)).rejects.toMatchObject({ code });
    await expect(saveWorkspace(file, emptyWorkspace({ id: 'p' }, 'now'))).rejects.toMatchObject({ code });
    expect(readFileSync(file, 'utf8')).toBe(content);
    expect(readdirSync(path.dirname(file))).toEqual(['w.sargable.json']);
  });
});
