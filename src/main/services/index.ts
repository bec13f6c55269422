// Wires the services used by every face (Electron, web mode, CLI).

import type { Services } from '../handlers.js';
import { CaptureService } from './capture.js';
import { ConnectionService } from './connection.js';
import { APP_NAME, APP_VERSION } from '../version.js';

/** Plain constructors, no DI container. */
export function createServices(mode: 'electron' | 'web'): Services {
  return {
    connections: new ConnectionService(),
    capture: new CaptureService(),
    app: { name: APP_NAME, version: APP_VERSION, mode },
  };
}
