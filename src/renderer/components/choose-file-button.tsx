// "Choose file…": the native dialog (Electron) or the browser's picker + upload (web mode); hands the
// panel an opaque reference to pass where a request takes a path (see src/renderer/file-choice.ts).
import type { AdvisorApi } from '../../shared/api.js';
import type { ChosenFile } from '../../shared/api/files.js';
import { canChoose, chooseFile, type FilePurpose } from '../file-choice.js';
import { toShownError, type ShownError } from './error-box.js';

export function ChooseFileButton({
  api,
  purpose,
  label = 'Choose file…',
  onChosen,
  onError,
  testId,
}: {
  api: AdvisorApi;
  purpose: FilePurpose;
  label?: string;
  onChosen(file: ChosenFile): void;
  onError(error: ShownError): void;
  testId?: string;
}) {
  if (!canChoose(purpose)) return null;
  return (
    <button
      type="button"
      className="button button--small"
      data-testid={testId}
      onClick={() => {
        chooseFile(api, purpose).then(
          (file) => {
            if (file) onChosen(file);
          },
          (caught: unknown) => onError(toShownError(caught)),
        );
      }}
    >
      {label}
    </button>
  );
}

/** The reference to send for what the path field shows: the chosen file's, or the typed path. */
export function fileRef(typed: string, chosen: ChosenFile | null): string {
  const text = typed.trim();
  return chosen && chosen.name === text ? chosen.ref : text;
}
