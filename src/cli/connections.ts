// The CLI's connection service (the same slow-log window journal as the app, restored on connect) and its capture history.
import path from 'node:path';
import type { OpenResult } from '../shared/api.js';
import { ConnectionService } from '../main/services/connection.js';
import { defaultConfigDir } from '../main/services/profiles.js';
import { JOURNAL_FILE } from '../main/services/slowlog-journal.js';
import type { CaptureWindow } from '../core/history/index.js';
import { HistoryService, recordCapture, type WindowOwner } from '../main/services/history.js';
import { HISTORY_FILE } from '../main/services/history-db.js';
import type { CliIo } from './io.js';

/** The journal of slow-log windows in the user's config dir. */
export function slowLogJournalPath(): string {
  return path.join(defaultConfigDir(), JOURNAL_FILE);
}

/** A ConnectionService that repairs slow-log windows a crash left open, on connect. */
export function cliConnections(): ConnectionService {
  return new ConnectionService({ slowLogJournal: slowLogJournalPath() });
}

/** Print what the connect did that the user must know (to stderr). */
export function printNotices(opened: OpenResult, stderr: (text: string) => void): void {
  for (const notice of opened.notices ?? []) stderr(`sargable: ${notice}\n`);
}

/**
 * The capture history in the user's config dir (`XDG_CONFIG_HOME` from the command's environment
 * first, so tests and scripts can point it elsewhere).
 */
export function cliHistory(env: Readonly<Record<string, string | undefined>>): HistoryService {
  return new HistoryService(path.join(defaultConfigDir({ ...process.env, ...env }), HISTORY_FILE));
}

/** `--record`: store a finished window and say so on standard error (a failure is said, not thrown). */
export async function recordWindow(
  io: Pick<CliIo, 'env' | 'stderr'>,
  capture: CaptureWindow,
  owner: WindowOwner,
): Promise<void> {
  const history = cliHistory(io.env);
  const recorded = await recordCapture(history, capture, owner);
  io.stderr(
    recorded.windowId === null
      ? `sargable: the window was not recorded: ${recorded.skipped ?? 'unknown reason'}\n`
      : `sargable: recorded window #${recorded.windowId} (${recorded.classes} classes, samples: ${recorded.samples}) in ${history.file}\n`,
  );
}
