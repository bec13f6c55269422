// The editor's tab strip: one button per tab, a close button when there is more than one, and New tab.
import type { Tab } from '../state/workbench.js';

export function EditorTabs({
  tabs,
  activeTab,
  onSwitch,
  onClose,
  onNew,
}: {
  tabs: Tab[];
  activeTab: string;
  onSwitch(id: string): void;
  onClose(id: string): void;
  onNew(): void;
}) {
  return (
    <div className="editor-tabs" role="tablist" aria-label="Editor tabs">
      {tabs.map((tab) => (
        <div key={tab.id} className={`editor-tab${tab.id === activeTab ? ' is-active' : ''}`}>
          <button
            type="button"
            role="tab"
            aria-selected={tab.id === activeTab}
            className="editor-tab__title"
            onClick={() => onSwitch(tab.id)}
            data-testid="editor-tab"
          >
            {tab.title}
          </button>
          {tabs.length > 1 && (
            <button
              type="button"
              className="editor-tab__close"
              aria-label={`Close ${tab.title}`}
              onClick={() => onClose(tab.id)}
            >
              ×
            </button>
          )}
        </div>
      ))}
      <button
        type="button"
        className="editor-tabs__new"
        onClick={onNew}
        aria-label="New tab"
        data-testid="new-tab"
      >
        +
      </button>
    </div>
  );
}
