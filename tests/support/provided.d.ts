// Types for what tests/support/global-setup.ts provides, so `inject('servers')` is typed.
import 'vitest';

/** Connection URLs of the integration servers; a `*ReadOnly` URL is null when not available. */
export interface ProvidedServers {
  /** Admin user (ALL PRIVILEGES WITH GRANT OPTION) on MySQL 8.0.33. */
  mysql: string;
  /** Admin user on MariaDB 10.11. */
  mariadb: string;
  /** `sargable_ro` (SELECT, PROCESS, SHOW VIEW) on MySQL; null for an external server given without one. */
  mysqlReadOnly: string | null;
  /** `sargable_ro` on MariaDB; null for an external server given without one. */
  mariadbReadOnly: string | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    servers: ProvidedServers;
  }
}
