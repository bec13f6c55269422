// Loading a schema file for offline work: the user picks a file (dialog grant or upload), the service
// reads it from disk as a job (schema.loadFile), the UI follows its progress and can cancel it.
/*
 * Design note: the file's text never passes through the renderer or a request body (the web bridge
 * takes at most 4 MiB for the methods that parse SQL); the reply is a summary and a `schemaId` that
 * analyses send instead of the text. The reducer is pure (tested in tests/unit/renderer); the hook
 * drives the job over the `job.events` channel, as the Top queries digest does.
 */
import { useCallback, useReducer } from 'react';
import type { AdvisorApi } from '../../shared/api.js';
import type { JobStatusReply } from '../../shared/api/capture.js';
import type { ChosenFile } from '../../shared/api/files.js';
import type { SchemaFileReply } from '../../shared/api/schema.js';
import type { Listen } from '../../shared/events.js';
import type { ShownError } from '../components/error-box.js';
import { useFileJob } from './file-job.js';

export type SchemaFileState =
  | { status: 'idle' }
  /** Web mode: the picked file goes to the local bridge first. */
  | { status: 'uploading'; name: string; sent: number; total: number }
  | { status: 'loading'; name: string; jobId: string | null; bytesRead: number; totalBytes: number }
  | { status: 'loaded'; file: SchemaFileReply }
  | { status: 'failed'; name: string; error: ShownError }
  | { status: 'cancelled'; name: string };

export type SchemaFileAction =
  | { type: 'upload'; name: string; sent: number; total: number }
  | { type: 'start'; name: string }
  | { type: 'job'; jobId: string }
  | { type: 'progress'; bytesRead: number; totalBytes: number }
  | { type: 'loaded'; file: SchemaFileReply }
  | { type: 'failed'; error: ShownError }
  | { type: 'cancelled' }
  | { type: 'clear' };

export const initialSchemaFile: SchemaFileState = { status: 'idle' };

export function schemaFileReducer(state: SchemaFileState, action: SchemaFileAction): SchemaFileState {
  switch (action.type) {
    case 'upload':
      return state.status === 'loading'
        ? state
        : { status: 'uploading', name: action.name, sent: action.sent, total: action.total };
    case 'start':
      return { status: 'loading', name: action.name, jobId: null, bytesRead: 0, totalBytes: 0 };
    case 'job':
      return state.status === 'loading' ? { ...state, jobId: action.jobId } : state;
    case 'progress':
      return state.status === 'loading'
        ? { ...state, bytesRead: action.bytesRead, totalBytes: action.totalBytes }
        : state;
    case 'loaded':
      return state.status === 'loading' ? { status: 'loaded', file: action.file } : state;
    case 'failed':
      return state.status === 'loading' || state.status === 'uploading'
        ? { status: 'failed', name: state.name, error: action.error }
        : state;
    case 'cancelled':
      return state.status === 'loading' || state.status === 'uploading'
        ? { status: 'cancelled', name: state.name }
        : state;
    case 'clear':
      return initialSchemaFile;
  }
}

/** `3.2 of 12.0 MB (27%)` for the progress line. */
export function progressText(bytesRead: number, totalBytes: number): string {
  const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
  if (totalBytes <= 0) return 'starting…';
  return `${mb(bytesRead)} of ${mb(totalBytes)} MB (${Math.floor((bytesRead / totalBytes) * 100)}%)`;
}

/** `schema.sql: 5000 tables, 12 views, skipped 3` for a loaded file. */
export function loadedText(file: SchemaFileReply): string {
  const parts = [file.tables === 1 ? '1 table' : `${file.tables} tables`];
  if (file.views > 0) parts.push(file.views === 1 ? '1 view' : `${file.views} views`);
  if (file.sequences > 0) parts.push(file.sequences === 1 ? '1 sequence' : `${file.sequences} sequences`);
  if (file.skippedCount > 0) parts.push(`skipped ${file.skippedCount}`);
  return parts.join(', ');
}

/** The final status of a schema-load job as an action. */
export function finalAction(status: JobStatusReply | null): SchemaFileAction {
  if (!status || status.state === 'cancelled') return { type: 'cancelled' };
  if (status.state === 'done') return { type: 'loaded', file: status.result as SchemaFileReply };
  return {
    type: 'failed',
    error: {
      code: status.error?.code ?? 'INTERNAL',
      message: status.error?.message ?? `Loading the schema file ${status.state}.`,
      ...(status.error?.hint ? { hint: status.error.hint } : {}),
    },
  };
}

/** The progress action of a running schema-load job. */
function progressAction(status: JobStatusReply): SchemaFileAction {
  return {
    type: 'progress',
    bytesRead: status.progress.bytesRead ?? 0,
    totalBytes: status.progress.totalBytes ?? 0,
  };
}

interface SchemaFileContext {
  flavor: 'mysql' | 'mariadb';
  version: string;
}

/** Load / cancel / clear for one schema-file field. */
export function useSchemaFile(
  api: AdvisorApi,
  listen: Listen,
  initial: SchemaFileReply | undefined,
): {
  state: SchemaFileState;
  /** Pick a file (inside a click handler), upload it in web mode, then load it. */
  choose(flavor: 'mysql' | 'mariadb', version: string): Promise<void>;
  load(file: ChosenFile, flavor: 'mysql' | 'mariadb', version: string): Promise<void>;
  cancel(): void;
  clear(): void;
} {
  const [state, dispatch] = useReducer(
    schemaFileReducer,
    initial ? { status: 'loaded', file: initial } : initialSchemaFile,
  );
  const start = useCallback(
    (file: ChosenFile, context: SchemaFileContext) => api['schema.loadFile']({ ref: file.ref, ...context }),
    [api],
  );
  const job = useFileJob<SchemaFileContext, SchemaFileAction>(api, listen, dispatch, {
    purpose: 'schema',
    start,
    progress: progressAction,
    final: finalAction,
  });
  const { run, choose: chooseFor, cancel, clear } = job;
  const load = useCallback(
    (file: ChosenFile, flavor: 'mysql' | 'mariadb', version: string) => run(file, { flavor, version }),
    [run],
  );
  const choose = useCallback(
    (flavor: 'mysql' | 'mariadb', version: string) => chooseFor({ flavor, version }),
    [chooseFor],
  );
  return { state, choose, load, cancel, clear };
}
