// "Analyse SQL file…": a SQL file of any size (a dump, a query log) analysed by main as a stream
// (sqlFile.analyze), followed on job.events with a progress bar and Cancel; the findings come back with
// their line and an excerpt, never the file's text. One statement opens in an editor tab on demand.
/*
 * Design note: the file is chosen with the picker (Electron: main's dialog grant; web mode: an upload
 * to the local bridge, whose grant is the only way the service opens it: a typed path is never sent).
 * The reducer is pure (tests/unit/renderer/sql-file-state.test.ts); the hook drives the job as the
 * schema-file load does (state/schema-file.ts).
 */
import { useCallback, useReducer } from 'react';
import type { AdvisorApi } from '../../shared/api.js';
import type { JobStatusReply } from '../../shared/api/capture.js';
import type { ChosenFile } from '../../shared/api/files.js';
import type { SqlFileReply, SqlFileStatement } from '../../shared/api/sql-file.js';
import type { Listen } from '../../shared/events.js';
import type { ShownError } from '../components/error-box.js';
import { useFileJob } from './file-job.js';

export interface SqlFileCounts {
  bytesRead: number;
  totalBytes: number;
  statements: number;
  findings: number;
  errors: number;
}

export type SqlFileState =
  | { status: 'idle' }
  /** Web mode: the picked file goes to the local bridge first. */
  | { status: 'uploading'; name: string; sent: number; total: number }
  | ({ status: 'running'; name: string; jobId: string | null } & SqlFileCounts)
  | { status: 'done'; reply: SqlFileReply }
  | { status: 'failed'; name: string; error: ShownError }
  /** Cancelled before the analysis started (during the upload). */
  | { status: 'cancelled'; name: string };

export type SqlFileAction =
  | { type: 'upload'; name: string; sent: number; total: number }
  | { type: 'start'; name: string }
  | { type: 'job'; jobId: string }
  | ({ type: 'progress' } & SqlFileCounts)
  | { type: 'done'; reply: SqlFileReply }
  | { type: 'failed'; error: ShownError }
  | { type: 'cancelled' }
  | { type: 'clear' };

export const initialSqlFile: SqlFileState = { status: 'idle' };

const zero: SqlFileCounts = { bytesRead: 0, totalBytes: 0, statements: 0, findings: 0, errors: 0 };

export function sqlFileReducer(state: SqlFileState, action: SqlFileAction): SqlFileState {
  switch (action.type) {
    case 'upload':
      return state.status === 'running'
        ? state
        : { status: 'uploading', name: action.name, sent: action.sent, total: action.total };
    case 'start':
      return { status: 'running', name: action.name, jobId: null, ...zero };
    case 'job':
      return state.status === 'running' ? { ...state, jobId: action.jobId } : state;
    case 'progress': {
      if (state.status !== 'running') return state;
      // Events can arrive out of order on a slow link: the counts never go back.
      const { type: _type, ...counts } = action;
      void _type;
      return {
        ...state,
        bytesRead: Math.max(state.bytesRead, counts.bytesRead),
        totalBytes: Math.max(state.totalBytes, counts.totalBytes),
        statements: Math.max(state.statements, counts.statements),
        findings: Math.max(state.findings, counts.findings),
        errors: Math.max(state.errors, counts.errors),
      };
    }
    case 'done':
      return state.status === 'running' ? { status: 'done', reply: action.reply } : state;
    case 'failed':
      return state.status === 'running' || state.status === 'uploading'
        ? { status: 'failed', name: state.name, error: action.error }
        : state;
    case 'cancelled':
      return state.status === 'running' || state.status === 'uploading'
        ? { status: 'cancelled', name: state.name }
        : state;
    case 'clear':
      return initialSqlFile;
  }
}

/** The final status of a sqlFile.analyze job as an action (a cancel ends `done` with what was read). */
export function finalSqlFileAction(status: JobStatusReply | null): SqlFileAction {
  if (!status || status.state === 'cancelled') return { type: 'cancelled' };
  if (status.state === 'done') return { type: 'done', reply: status.result as SqlFileReply };
  return {
    type: 'failed',
    error: {
      code: status.error?.code ?? 'INTERNAL',
      message: status.error?.message ?? `The file analysis ${status.state}.`,
      ...(status.error?.hint ? { hint: status.error.hint } : {}),
    },
  };
}

/** `312.4 of 1,024.0 MB (30%)`. */
export function bytesText(read: number, total: number): string {
  const mb = (bytes: number) =>
    (bytes / 1_048_576).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  if (total <= 0) return 'starting…';
  return `${mb(read)} of ${mb(total)} MB (${Math.floor((read / total) * 100)}%)`;
}

/** `1 statement` / `1,234 statements`. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** What the analysis request carries besides the file: schema, target and rules of the session. */
export type SqlFileContext = Omit<Parameters<AdvisorApi['sqlFile.analyze']>[0], 'ref'>;

/** The progress action of a running SQL file analysis. */
function progressAction(status: JobStatusReply): SqlFileAction {
  return {
    type: 'progress',
    bytesRead: status.progress.bytesRead ?? 0,
    totalBytes: status.progress.totalBytes ?? 0,
    statements: status.progress.events ?? 0,
    findings: status.progress.findings ?? 0,
    errors: status.progress.errors ?? 0,
  };
}

/** Choose / cancel / clear, and one statement for an editor tab. */
export function useSqlFile(
  api: AdvisorApi,
  listen: Listen,
): {
  state: SqlFileState;
  /** Pick a file (inside a click handler), upload it in web mode, then analyse it. */
  choose(context: SqlFileContext): Promise<void>;
  /** Analyse a chosen file (its grant). */
  analyse(file: ChosenFile, context: SqlFileContext): Promise<void>;
  cancel(): void;
  clear(): void;
  statement(index: number): Promise<SqlFileStatement>;
} {
  const [state, dispatch] = useReducer(sqlFileReducer, initialSqlFile);
  const analysisId = state.status === 'done' ? state.reply.analysisId : null;
  const start = useCallback(
    (file: ChosenFile, context: SqlFileContext) => api['sqlFile.analyze']({ ...context, ref: file.ref }),
    [api],
  );
  const {
    run: analyse,
    choose,
    cancel,
    clear,
  } = useFileJob<SqlFileContext, SqlFileAction>(api, listen, dispatch, {
    purpose: 'sql',
    start,
    progress: progressAction,
    final: finalSqlFileAction,
  });

  const statement = useCallback(
    (index: number) => {
      if (!analysisId) return Promise.reject(new Error('No file analysis.'));
      return api['sqlFile.statement']({ analysisId, index });
    },
    [api, analysisId],
  );

  return { state, choose, analyse, cancel, clear, statement };
}
