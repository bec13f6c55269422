// The app's handlers as the web bridge builds them, for integration tests: a fresh userData dir (profiles without a keychain, the capture history).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dispatch } from '../../src/main/dispatch.js';
import { createHandlers } from '../../src/main/handlers/index.js';
import { ConnectionService } from '../../src/main/services/connection.js';
import { HistoryService } from '../../src/main/services/history.js';
import { HISTORY_FILE } from '../../src/main/services/history-db.js';
import { ProfileService, ProfileStore } from '../../src/main/services/profiles.js';
import { NoSecretStore } from '../../src/main/services/secrets.js';
import type { AdvisorApi, Reply } from '../../src/shared/api.js';

/** Handlers over their own temp userData dir, and `call` through the same dispatch IPC and the bridge use. */
export function testHandlers(
  prefix: string,
  connectionOptions?: ConstructorParameters<typeof ConnectionService>[0],
): {
  handlers: AdvisorApi;
  connections: ConnectionService;
  userDataDir: string;
  call(method: string, request: unknown): Promise<Reply<unknown>>;
} {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  const connections = new ConnectionService(connectionOptions);
  const handlers = createHandlers({
    connections,
    app: { name: 'Sargable', version: 'test', mode: 'web' },
    userDataDir,
    history: new HistoryService(path.join(userDataDir, HISTORY_FILE)),
    profiles: new ProfileService(
      new ProfileStore(path.join(userDataDir, 'profiles.json')),
      new NoSecretStore('test'),
      connections,
    ),
  });
  return {
    handlers,
    connections,
    userDataDir,
    call: (method, request) => dispatch(handlers, method, request),
  };
}
