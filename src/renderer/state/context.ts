// What the workbench commands work with: the API client, the store and the editor (or a test double of it).
import type { AdvisorApi } from '../../shared/api.js';
import type { Listen } from '../../shared/events.js';
import { apiMethods, type ApiMethod } from '../../shared/methods.js';
import type { SqlEditor } from '../sql-editor.js';
import type { Store } from './store.js';
import type { WorkbenchAction, WorkbenchState } from './workbench.js';

/** The parts of the Monaco editor wrapper the commands use (unit tests pass a plain object). */
export type EditorPort = Pick<
  SqlEditor,
  | 'getText'
  | 'cursorOffset'
  | 'selectOffsets'
  | 'replaceOffsets'
  | 'applyRewrite'
  | 'focus'
  | 'trigger'
  | 'clearAllItems'
  | 'showItems'
  | 'reveal'
  | 'nextKey'
  | 'liveKeys'
  | 'addTab'
  | 'switchTab'
  | 'closeTab'
>;

/** One workbench: made once per App, handed to every command. */
export interface Workbench {
  api: AdvisorApi;
  /** Event channels (job progress). */
  listen: Listen;
  store: Store<WorkbenchState, WorkbenchAction>;
  /** The editor once mounted. */
  editor(): EditorPort | null;
  /** An analysis is in flight (a second one is ignored, as the Analyze button is disabled). */
  analyzing: boolean;
}

/** True when this build's API has the method (the method list has no dependencies, unlike shared/api). */
export function hasMethod(name: string): boolean {
  return (apiMethods as readonly string[]).includes(name as ApiMethod);
}

/** Panels and features whose methods exist in this build. */
export const features = {
  modes: hasMethod('sqlmode.view') && hasMethod('sqlmode.upgrade'),
  top: hasMethod('digest.start') && hasMethod('job.status') && hasMethod('job.cancel'),
  locks: hasMethod('locks.poll') && hasMethod('locks.kill'),
  export: hasMethod('workspace.get') && hasMethod('export.preview'),
  ruleToggles: hasMethod('workspace.get') && hasMethod('workspace.setRuleDisabled'),
  /** The opt-in rule checkboxes are saved in the workspace (and restored from it). */
  optInSaved: hasMethod('workspace.get') && hasMethod('workspace.setRuleEnabled'),
  indexes: hasMethod('indexes.design'),
  run: hasMethod('query.run'),
  sqlFile: hasMethod('sqlFile.analyze') && hasMethod('sqlFile.statement') && hasMethod('job.cancel'),
} as const;
