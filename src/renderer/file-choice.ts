// Choosing a file for the API: Electron asks main for its native dialog (files.choose); web mode uses
// the browser's file picker and uploads the file to the local bridge (POST /upload). Either way the
// page gets an opaque reference, never the power to name an arbitrary path (docs/security.md, "Files").
import type { AdvisorApi } from '../shared/api.js';
import type { ChosenFile } from '../shared/api/files.js';
import { AdvisorError } from '../shared/errors.js';

export type FilePurpose = 'slowlog' | 'schema' | 'sql' | 'workspace-open' | 'workspace-save';

/** True in Electron (the preload bridge is there). */
function inElectron(win: Window): boolean {
  return typeof win.sargable?.invoke === 'function';
}

/** Whether this purpose can be chosen here (web mode cannot pick a place to save to). */
export function canChoose(purpose: FilePurpose, win: Window = window): boolean {
  return inElectron(win) || purpose !== 'workspace-save';
}

/** Web mode: how far the upload of the picked file is (a big schema dump takes a while). */
export interface UploadProgress {
  name: string;
  sent: number;
  total: number;
}

/** Options of {@link chooseFile}: follow the upload (web mode), and abort it. */
export interface ChooseOptions {
  onUpload?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/** Ask the user for a file; null when they cancel. Must run inside a click handler (user gesture). */
export async function chooseFile(
  api: AdvisorApi,
  purpose: FilePurpose,
  win: Window = window,
  options: ChooseOptions = {},
): Promise<ChosenFile | null> {
  if (inElectron(win)) {
    const { files } = await api['files.choose']({ purpose });
    return files[0] ?? null;
  }
  const file = await pickInBrowser(win, purpose === 'workspace-open' ? '.json' : '');
  if (!file) return null;
  if (options.onUpload || options.signal) return uploadWithProgress(win, file, options);
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

/**
 * {@link chooseFile} for a job hook: the upload can be aborted through `upload.current` (a later choice
 * takes it over), its progress and failure reach the hook only while it is the current one; null when the
 * user cancels the picker or the upload failed (after `on.failed`).
 */
export async function chooseWithUpload(
  api: AdvisorApi,
  purpose: FilePurpose,
  upload: { current: AbortController | null },
  on: { progress(progress: UploadProgress): void; failed(caught: unknown, aborted: boolean): void },
): Promise<ChosenFile | null> {
  const controller = new AbortController();
  upload.current = controller;
  try {
    // Called first, without an await before it: the browser's picker needs the click's gesture.
    return await chooseFile(api, purpose, window, {
      signal: controller.signal,
      onUpload: (progress) => {
        if (upload.current === controller) on.progress(progress);
      },
    });
  } catch (caught) {
    if (upload.current === controller) on.failed(caught, controller.signal.aborted);
    return null;
  } finally {
    if (upload.current === controller) upload.current = null;
  }
}

/** The upload as XMLHttpRequest (fetch reports no upload progress): progress events, abort → CANCELLED. */
function uploadWithProgress(win: Window, file: File, options: ChooseOptions): Promise<ChosenFile> {
  return new Promise((resolve, reject) => {
    const request = new (win as Window & typeof globalThis).XMLHttpRequest();
    request.open('POST', `/upload?name=${encodeURIComponent(file.name)}`);
    request.setRequestHeader('content-type', 'application/octet-stream');
    request.responseType = 'text';
    request.upload.addEventListener('progress', (event) =>
      options.onUpload?.({ name: file.name, sent: event.loaded, total: event.total || file.size }),
    );
    const abort = () => request.abort();
    options.signal?.addEventListener('abort', abort, { once: true });
    const done = () => options.signal?.removeEventListener('abort', abort);
    request.addEventListener('abort', () => {
      done();
      reject(new AdvisorError('CANCELLED', `The upload of ${file.name} was cancelled.`));
    });
    request.addEventListener('error', () => {
      done();
      reject(
        new AdvisorError('CONNECTION_LOST', `The upload of ${file.name} failed: is Sargable still running?`),
      );
    });
    request.addEventListener('load', () => {
      done();
      let reply:
        { ok: true; value: ChosenFile } | { ok: false; error: { code: string; message: string } } | null;
      try {
        reply = JSON.parse(request.responseText) as typeof reply;
      } catch {
        reply = null;
      }
      if (!reply) reject(new AdvisorError('INTERNAL', `Upload failed (HTTP ${request.status}).`));
      else if (!reply.ok) reject(AdvisorError.fromWire(reply.error as never));
      else resolve(reply.value);
    });
    options.onUpload?.({ name: file.name, sent: 0, total: file.size });
    if (options.signal?.aborted) request.abort();
    else request.send(file);
  });
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
