// What we know about the server an analysis targets: flavor, version, modes, capabilities.

import type { Capabilities, Flavor } from '../flavors/capabilities.js';

/** Runtime facts that are not derived from the version (read from the live server). */
export interface RuntimeCapabilities {
  /** performance_schema is ON (MySQL default) or OFF (MariaDB default; changes need a restart). */
  performanceSchema: boolean;
}

/** Everything detected on connect, in one object. */
export interface ServerInfo {
  flavor: Flavor;
  /** `8.0.33`, `10.11.6` (no suffix) */
  version: string;
  /** The raw `SELECT VERSION()` */
  versionString: string;
  /** `@@version_comment`, e.g. `MySQL Community Server - GPL`, `mariadb.org binary distribution` */
  versionComment: string;
  sqlMode: { session: string; global: string };
  capabilities: Capabilities & RuntimeCapabilities;
  /** The default schema of the connection, if any. */
  database: string | null;
}

/** Where the target came from, as the CLI JSON reports it. */
export type TargetSource = 'dsn' | 'flags' | 'default';

/** The flavor/version an analysis is done for. */
export interface AnalysisTarget {
  flavor: Flavor;
  version: string;
  source: TargetSource;
  /** Present when connected. */
  server?: ServerInfo;
}
