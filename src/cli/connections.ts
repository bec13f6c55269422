// The CLI's connection service: the same slow-log window journal as the app (restored on connect).
import path from 'node:path';
import type { OpenResult } from '../shared/api.js';
import { ConnectionService } from '../main/services/connection.js';
import { defaultConfigDir } from '../main/services/profiles.js';
import { JOURNAL_FILE } from '../main/services/slowlog-journal.js';

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
