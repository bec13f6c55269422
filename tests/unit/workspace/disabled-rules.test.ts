// Rules disabled per workspace: normalised, sorted, saved and read back; files without the field still open.
import { describe, expect, it } from 'vitest';
import {
  emptyWorkspace,
  parseWorkspace,
  serializeWorkspace,
  setRuleDisabled,
  setRuleEnabled,
} from '../../../src/core/workspace/index.js';

describe('workspace disabledRules', () => {
  it('toggles, normalises and round-trips; an empty list leaves no field', () => {
    const workspace = emptyWorkspace({ id: 'p' }, '2024-01-01T00:00:00.000Z');
    const changes = [
      setRuleDisabled(workspace, 'idx001', true, 't1'),
      setRuleDisabled(workspace, 'FUN.001', true, 't2'),
      setRuleDisabled(workspace, 'FUN001', true, 't3'),
    ];
    const saved = parseWorkspace(serializeWorkspace(workspace, 't4'));
    const afterReEnable = [
      setRuleDisabled(workspace, 'FUN001', false, 't5'),
      setRuleDisabled(workspace, 'IDX001', false, 't6'),
    ];
    expect({
      changes,
      saved: saved.ok ? saved.workspace.disabledRules : saved.problem,
      afterReEnable,
      field: 'disabledRules' in workspace,
      oldFile: parseWorkspace(serializeWorkspace(workspace, 't7')).ok,
    }).toEqual({
      changes: [true, true, false],
      saved: ['FUN001', 'IDX001'],
      afterReEnable: [true, true],
      field: false,
      oldFile: true,
    });
  });

  it('opt-in rules turned on are saved and read back the same way, apart from the disabled ones', () => {
    const workspace = emptyWorkspace({ id: 'p' }, '2024-01-01T00:00:00.000Z');
    const changes = [
      setRuleEnabled(workspace, 'qry.001', true, 't1'),
      setRuleEnabled(workspace, 'QRY001', true, 't2'),
      setRuleDisabled(workspace, 'FUN001', true, 't3'),
    ];
    const saved = parseWorkspace(serializeWorkspace(workspace, 't4'));
    expect({
      changes,
      enabled: saved.ok ? saved.workspace.enabledRules : saved.problem,
      disabled: saved.ok ? saved.workspace.disabledRules : saved.problem,
      off: setRuleEnabled(workspace, 'QRY001', false, 't5'),
      field: 'enabledRules' in workspace,
    }).toEqual({
      changes: [true, false, true],
      enabled: ['QRY001'],
      disabled: ['FUN001'],
      off: true,
      field: false,
    });
  });
});
