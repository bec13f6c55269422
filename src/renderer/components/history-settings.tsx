// The capture history's settings dialog: record or not, retention (days and windows), what samples are kept for production and other connections, clear.
import { useState } from 'react';
import type { SamplePolicy } from '../../core/history/index.js';
import type { SettingsDraft, TopHistoryState } from '../state/top-history.js';
import { ErrorBox } from './error-box.js';
import { Modal } from './modal.js';

const policyLabels: Record<SamplePolicy, string> = {
  placeholders: 'Placeholders only (normalized text, no values)',
  full: 'Full statements (real values)',
  none: 'No statement text',
};

function PolicySelect({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: SamplePolicy;
  onChange(value: SamplePolicy): void;
  testId: string;
}) {
  return (
    <div className="field field--full">
      <label htmlFor={testId}>{label}</label>
      <select
        id={testId}
        value={value}
        onChange={(event) => onChange(event.target.value as SamplePolicy)}
        data-testid={testId}
      >
        {(Object.keys(policyLabels) as SamplePolicy[]).map((policy) => (
          <option key={policy} value={policy}>
            {policyLabels[policy]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Edits the history settings; Save stores them (a shorter retention prunes at once). */
export function HistorySettingsDialog({
  history,
  onEdit,
  onSave,
  onClear,
  onClose,
}: {
  history: TopHistoryState;
  onEdit(patch: Partial<SettingsDraft>): void;
  onSave(draft: SettingsDraft): void;
  onClear(): void;
  onClose(): void;
}) {
  const { draft, settings, settingsError, settingsNote } = history;
  const [confirmClear, setConfirmClear] = useState(false);
  return (
    <Modal title="Capture history" onClose={onClose} testId="history-settings">
      <form
        className="dialog__body"
        onSubmit={(event) => {
          event.preventDefault();
          if (draft) onSave(draft);
        }}
      >
        <p className="dialog__note">
          Every finished capture (live window, mysql.slow_log, slow-log file) is stored per class on this
          computer, so Top queries can show each class&apos;s trend across windows.
          {settings ? ` File: ${settings.file} (in the config directory, readable by you only).` : ''}
        </p>
        {!draft && !settingsError && <p className="empty-state__hint">Reading the settings…</p>}
        {draft && (
          <div className="grid">
            <label className="checkbox-row field--full">
              <input
                type="checkbox"
                checked={draft.enabled}
                onChange={(event) => onEdit({ enabled: event.target.checked })}
                data-testid="history-enabled"
              />
              Record finished captures
            </label>
            <div className="field">
              <label htmlFor="history-retention">Keep windows for (days, 0: no limit)</label>
              <input
                id="history-retention"
                type="number"
                min={0}
                max={36_500}
                value={draft.retentionDays}
                onChange={(event) => onEdit({ retentionDays: event.target.value })}
                data-testid="history-retention"
              />
            </div>
            <div className="field">
              <label htmlFor="history-max-windows">Keep at most (windows, 0: no limit)</label>
              <input
                id="history-max-windows"
                type="number"
                min={0}
                max={1_000_000}
                value={draft.maxWindows}
                onChange={(event) => onEdit({ maxWindows: event.target.value })}
                data-testid="history-max-windows"
              />
            </div>
            <PolicySelect
              label="Statement samples from production profiles"
              value={draft.production}
              onChange={(production) => onEdit({ production })}
              testId="history-samples-production"
            />
            <PolicySelect
              label="Statement samples from other connections and files"
              value={draft.other}
              onChange={(other) => onEdit({ other })}
              testId="history-samples-other"
            />
          </div>
        )}
        {settingsError && <ErrorBox error={settingsError} testId="history-settings-error" />}
        {settingsNote && (
          <p className="dialog__note" role="status" data-testid="history-settings-note">
            {settingsNote}
          </p>
        )}
        <footer className="dialog__footer">
          {confirmClear ? (
            <button
              type="button"
              className="button button--danger"
              onClick={() => {
                setConfirmClear(false);
                onClear();
              }}
              data-testid="history-clear-confirm"
            >
              Delete every stored window
            </button>
          ) : (
            <button
              type="button"
              className="button"
              onClick={() => setConfirmClear(true)}
              data-testid="history-clear"
            >
              Clear history…
            </button>
          )}
          <button type="button" className="button" onClick={onClose} data-testid="history-close">
            Close
          </button>
          <button
            type="submit"
            className="button button--primary"
            disabled={!draft}
            data-testid="history-save"
          >
            Save
          </button>
        </footer>
      </form>
    </Modal>
  );
}
