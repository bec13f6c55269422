// The command palette (Ctrl/Cmd+Shift+P): every workbench action with its shortcut, filtered as you type.
import { useMemo, useState, type KeyboardEvent } from 'react';
import { Modal } from './modal.js';

/** One action of the workbench. */
export interface Command {
  id: string;
  title: string;
  /** Shown as typed, e.g. `Ctrl+E`. */
  shortcut?: string;
  /** Why it is unavailable right now; the command is listed but cannot run. */
  disabledReason?: string;
  run(): void;
}

/** Commands whose title contains every typed word, in their given order. */
export function filterCommands(commands: readonly Command[], query: string): Command[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return commands.filter((command) => {
    const title = command.title.toLowerCase();
    return words.every((word) => title.includes(word));
  });
}

/** Modal list with a filter box; arrows move, Enter runs, Escape closes. */
export function CommandPalette({ commands, onClose }: { commands: readonly Command[]; onClose(): void }) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const shown = useMemo(() => filterCommands(commands, query), [commands, query]);
  const current = shown[Math.min(active, shown.length - 1)];

  function run(command: Command | undefined) {
    if (!command || command.disabledReason) return;
    onClose();
    // After the dialog closes, so focus-taking commands (dialogs, the editor) get the focus.
    window.setTimeout(() => command.run(), 0);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') setActive((index) => Math.min(shown.length - 1, index + 1));
    else if (event.key === 'ArrowUp') setActive((index) => Math.max(0, index - 1));
    else if (event.key === 'Enter') run(current);
    else return;
    event.preventDefault();
  }

  return (
    <Modal title="Command palette" onClose={onClose} testId="command-palette">
      <div className="palette">
        <input
          className="palette__input"
          autoFocus
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-activedescendant={current ? `palette-${current.id}` : undefined}
          aria-label="Type a command"
          placeholder="Type a command…"
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul className="palette__list" role="listbox" id="palette-list" aria-label="Commands">
          {shown.length === 0 && <li className="palette__none">No command matches “{query}”.</li>}
          {shown.map((command) => (
            <li
              key={command.id}
              id={`palette-${command.id}`}
              role="option"
              aria-selected={command === current}
              aria-disabled={command.disabledReason ? true : undefined}
              className={`palette__item${command === current ? ' is-active' : ''}${command.disabledReason ? ' is-disabled' : ''}`}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => run(command)}
              title={command.disabledReason}
              data-testid="palette-item"
              data-command={command.id}
            >
              <span className="palette__title">{command.title}</span>
              {command.disabledReason && <span className="palette__reason">{command.disabledReason}</span>}
              {command.shortcut && <kbd>{command.shortcut}</kbd>}
            </li>
          ))}
        </ul>
      </div>
    </Modal>
  );
}
