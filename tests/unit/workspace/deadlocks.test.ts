// Deadlock history in the workspace: one entry per fingerprint, occurrences by timestamp, kept across save and load.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLatestDeadlock, type Deadlock } from '../../../src/core/locks/deadlock.js';
import {
  emptyWorkspace,
  MAX_WORKSPACE_DEADLOCKS,
  parseWorkspace,
  recordDeadlock,
  serializeWorkspace,
} from '../../../src/core/workspace/model.js';

const NOW = '2025-01-01T00:00:00.000Z';
const capture = (name: string): Deadlock => {
  const parsed = parseLatestDeadlock(
    readFileSync(path.join(import.meta.dirname, '../../fixtures/locks/deadlock', name), 'utf8'),
  );
  if (!parsed) throw new Error(`no deadlock in ${name}`);
  return parsed;
};
const updates = capture('mysql-8.0.33-two-updates.txt');
const inserts = capture('mysql-8.0.33-insert-intention.txt');
const summary = (deadlocks: { fingerprint: string; occurrences: number; lastDetectedAt: string | null }[]) =>
  deadlocks.map((entry) => [entry.fingerprint, entry.occurrences, entry.lastDetectedAt]);

describe('recordDeadlock', () => {
  it('keeps distinct deadlocks once, counts a new occurrence, ignores the same report read again', () => {
    const workspace = emptyWorkspace({ id: 'p' }, NOW);
    const later = { ...updates, detectedAt: '2099-01-01 00:00:00' };
    const changes = [
      recordDeadlock(workspace, updates),
      recordDeadlock(workspace, updates), // the next poll reads the same LATEST DETECTED DEADLOCK
      recordDeadlock(workspace, inserts),
      recordDeadlock(workspace, later), // the same pattern again, later: most recently seen goes last
    ];
    expect({ changes, kept: summary(workspace.deadlocks ?? []) }).toEqual({
      changes: [true, false, true, true],
      kept: [
        [inserts.fingerprint, 1, inserts.detectedAt],
        [updates.fingerprint, 2, '2099-01-01 00:00:00'],
      ],
    });
  });

  it('survives a save and load (a restart), after which the same report is not counted again', () => {
    const workspace = emptyWorkspace({ id: 'p' }, NOW);
    recordDeadlock(workspace, updates);
    const loaded = parseWorkspace(serializeWorkspace(workspace, NOW));
    if (!loaded.ok) throw new Error(loaded.problem.message);
    expect({
      same: loaded.workspace.deadlocks,
      again: recordDeadlock(loaded.workspace, updates),
    }).toEqual({ same: workspace.deadlocks, again: false });
  });

  it('keeps at most MAX_WORKSPACE_DEADLOCKS, dropping the least recently seen', () => {
    const workspace = emptyWorkspace({ id: 'p' }, NOW);
    for (let index = 0; index <= MAX_WORKSPACE_DEADLOCKS; index += 1)
      recordDeadlock(workspace, { ...updates, fingerprint: `f${index}` });
    expect([workspace.deadlocks?.length, workspace.deadlocks?.[0]?.fingerprint]).toEqual([
      MAX_WORKSPACE_DEADLOCKS,
      'f1',
    ]);
  });
});

describe('workspace files and deadlocks', () => {
  it('reads version 2 files without a deadlock history, and refuses a damaged one', () => {
    const plain = serializeWorkspace(emptyWorkspace({ id: 'p' }, NOW), NOW);
    const damaged = JSON.stringify({
      ...JSON.parse(plain),
      deadlocks: [{ fingerprint: 'x', occurrences: 0 }],
    });
    const [withoutHistory, refused] = [parseWorkspace(plain), parseWorkspace(damaged)];
    expect([
      withoutHistory.ok && withoutHistory.workspace.deadlocks,
      refused.ok ? 'accepted' : refused.problem.kind,
    ]).toEqual([undefined, 'corrupt']);
  });
});
