// Records each explicit write (what-if index, kill, slow-log window, applied DDL) in the profile's workspace history.

import { recordWrite, type WriteRecord } from '../../core/workspace/model.js';
import type { ConnectionTarget } from './connection.js';
import type { WorkspaceSessions } from './workspace-sessions.js';

/**
 * Run a confirmed write and record it (done or failed, with the error message) in the workspace of
 * the connection's profile; the renderer's workspace id for a live session is the connection label.
 * A failure to record never hides the write's own result.
 */
export async function loggedWrite<T>(
  workspaces: WorkspaceSessions | undefined,
  target: Pick<ConnectionTarget, 'label' | 'production'>,
  entry: Pick<WriteRecord, 'action' | 'sql'> & { outcome?: 'started' },
  run: () => Promise<T>,
): Promise<T> {
  const record = async (outcome: WriteRecord['outcome'], message?: string): Promise<void> => {
    if (!workspaces) return;
    try {
      const open = await workspaces.current(target.label);
      recordWrite(open.workspace, {
        at: new Date().toISOString(),
        action: entry.action,
        sql: entry.sql,
        server: target.label,
        production: target.production !== undefined,
        outcome,
        ...(message ? { message } : {}),
      });
      await workspaces.persist(open);
    } catch {
      // The history is a record, not a gate: an unreadable workspace file must not undo a done write.
    }
  };
  try {
    const result = await run();
    await record(entry.outcome ?? 'done');
    return result;
  } catch (error) {
    const message =
      error instanceof Error && 'userMessage' in error
        ? String((error as { userMessage: unknown }).userMessage)
        : error instanceof Error
          ? error.message
          : String(error);
    await record('failed', message);
    throw error;
  }
}
