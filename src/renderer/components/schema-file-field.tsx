// "Load schema file…" in the Work offline form: the service reads the chosen file from disk (any size:
// it never goes through a request body), with a progress bar and Cancel (see state/schema-file.ts).
import type { SchemaFileReply } from '../../shared/api/schema.js';
import { loadedText, progressText, type SchemaFileState } from '../state/schema-file.js';
import { ErrorBox } from './error-box.js';

export function SchemaFileField({
  state,
  stale,
  onChoose,
  onCancel,
  onClear,
}: {
  state: SchemaFileState;
  /** The loaded file was read for another flavor or version than the form's. */
  stale: boolean;
  /** Pick the file (runs inside the click: the browser's picker needs the gesture). */
  onChoose(): void;
  onCancel(): void;
  onClear(): void;
}) {
  return (
    <div className="field field--full schema-file" data-testid="schema-file">
      <div className="schema-file__row">
        {state.status !== 'loading' && state.status !== 'uploading' && (
          <button
            type="button"
            className="button button--small"
            data-testid="schema-file-choose"
            onClick={onChoose}
          >
            {state.status === 'loaded' ? 'Load another schema file…' : 'Load schema file…'}
          </button>
        )}
        {state.status === 'uploading' && (
          <>
            <span data-testid="schema-file-progress">
              Uploading {state.name}: {progressText(state.sent, state.total)}
            </span>
            <progress max={state.total || 1} value={state.sent} aria-label={`Uploading ${state.name}`} />
            <button
              type="button"
              className="button button--small"
              data-testid="schema-file-cancel"
              onClick={onCancel}
            >
              Cancel
            </button>
          </>
        )}
        {state.status === 'loading' && (
          <>
            <span data-testid="schema-file-progress">
              Loading {state.name}: {progressText(state.bytesRead, state.totalBytes)}
            </span>
            <progress
              max={state.totalBytes || 1}
              value={state.bytesRead}
              aria-label={`Loading ${state.name}`}
            />
            <button
              type="button"
              className="button button--small"
              data-testid="schema-file-cancel"
              disabled={!state.jobId}
              onClick={onCancel}
            >
              Cancel
            </button>
          </>
        )}
        {state.status === 'loaded' && (
          <>
            <span data-testid="schema-file-loaded" title={skippedTitle(state.file)}>
              {state.file.name}: {loadedText(state.file)}
            </span>
            <button
              type="button"
              className="button button--small"
              data-testid="schema-file-clear"
              onClick={onClear}
            >
              Remove
            </button>
          </>
        )}
        {state.status === 'cancelled' && (
          <span data-testid="schema-file-cancelled">Loading {state.name} was cancelled.</span>
        )}
      </div>
      {state.status === 'loaded' && stale && (
        <p className="dialog__note" data-testid="schema-file-stale">
          {state.file.name} was read as {state.file.flavor === 'mariadb' ? 'MariaDB' : 'MySQL'}{' '}
          {state.file.version}: load it again for the flavor and version above.
        </p>
      )}
      {state.status === 'failed' && <ErrorBox error={state.error} testId="schema-file-error" />}
    </div>
  );
}

function skippedTitle(file: SchemaFileReply): string | undefined {
  if (file.skipped.length === 0) return undefined;
  return file.skipped
    .slice(0, 20)
    .map((entry) => `line ${entry.line}: ${entry.statement}: ${entry.reason}`)
    .join('\n');
}
