// Choosing a file for the API: Electron asks main for its native dialog (files.choose); web mode uses
// the browser's file picker and uploads the file to the local bridge (POST /upload). Either way the
// page gets an opaque reference, never the power to name an arbitrary path (docs/security.md, "Files").
import type { AdvisorApi } from '../shared/api.js';
import type { ChosenFile } from '../shared/api/files.js';
import { AdvisorError } from '../shared/errors.js';

export type FilePurpose = 'slowlog' | 'schema' | 'workspace-open' | 'workspace-save';

/** True in Electron (the preload bridge is there). */
function inElectron(win: Window): boolean {
  return typeof win.sargable?.invoke === 'function';
}

/** Whether this purpose can be chosen here (web mode cannot pick a place to save to). */
export function canChoose(purpose: FilePurpose, win: Window = window): boolean {
  return inElectron(win) || purpose !== 'workspace-save';
}

/** Ask the user for a file; null when they cancel. Must run inside a click handler (user gesture). */
export async function chooseFile(
  api: AdvisorApi,
  purpose: FilePurpose,
  win: Window = window,
): Promise<ChosenFile | null> {
  if (inElectron(win)) {
    const { files } = await api['files.choose']({ purpose });
    return files[0] ?? null;
  }
  const file = await pickInBrowser(win, purpose === 'workspace-open' ? '.json' : '');
  if (!file) return null;
  const response = await win.fetch(`/upload?name=${encodeURIComponent(file.name)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    credentials: 'same-origin',
    body: file,
  });
  const reply = (await response.json().catch(() => null)) as
    { ok: true; value: ChosenFile } | { ok: false; error: { code: string; message: string } } | null;
  if (!reply) throw new AdvisorError('INTERNAL', `Upload failed (HTTP ${response.status}).`);
  if (!reply.ok) throw AdvisorError.fromWire(reply.error as never);
  return reply.value;
}

function pickInBrowser(win: Window, accept: string): Promise<File | null> {
  return new Promise((resolve) => {
    const input = win.document.createElement('input');
    input.type = 'file';
    if (accept) input.accept = accept;
    input.addEventListener('change', () => resolve(input.files?.[0] ?? null), { once: true });
    input.addEventListener('cancel', () => resolve(null), { once: true });
    input.click();
  });
}
