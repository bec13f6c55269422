// Settings shared by playwright.config.ts and the specs: the web mode port and token, the MySQL test server.

/** Fixed port for the web mode the config starts. */
export const e2ePort = Number(process.env.SARGABLE_E2E_PORT ?? 5179);

/** Fixed token (SARGABLE_WEB_TOKEN) so specs can open the page without parsing the bridge's output. */
export const e2eToken = process.env.SARGABLE_WEB_TOKEN ?? 'e2e-token-0123456789abcdef';

/** The admin URL of the MySQL 8.0.33 test server (`npm test` exports it), or a clear error. */
export function mysqlTestUrl(): URL {
  const value = process.env.SARGABLE_TEST_MYSQL_URL;
  if (!value) {
    throw new Error(
      'SARGABLE_TEST_MYSQL_URL is not set: run the e2e tests through "npm test" (it starts the servers) ' +
        'or point it at a MySQL 8.0 admin URL like mysql://user:pass@127.0.0.1:3306/.',
    );
  }
  return new URL(value);
}

/** The admin URL of the MariaDB 10.11 test server (`npm test` exports it), or a clear error. */
export function mariadbTestUrl(): URL {
  const value = process.env.SARGABLE_TEST_MARIADB_URL;
  if (!value) {
    throw new Error(
      'SARGABLE_TEST_MARIADB_URL is not set: run the e2e tests through "npm test" (it starts the servers) ' +
        'or point it at a MariaDB 10.11 admin URL like mysql://user:pass@127.0.0.1:3306/.',
    );
  }
  return new URL(value);
}

/** A test server a spec runs on: its flavor, the name shown in test titles, its admin URL. */
export interface E2eServer {
  flavor: 'mysql' | 'mariadb';
  name: 'MySQL' | 'MariaDB';
  url(): URL;
}

/** Both test servers, for specs that run on each (the URL is read when a test runs, not at load). */
export const e2eServers: readonly E2eServer[] = [
  { flavor: 'mysql', name: 'MySQL', url: mysqlTestUrl },
  { flavor: 'mariadb', name: 'MariaDB', url: mariadbTestUrl },
];
