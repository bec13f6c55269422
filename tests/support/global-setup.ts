// Vitest globalSetup for the integration project: starts (or finds) both servers and provides their URLs.
import type { TestProject } from 'vitest/node';
import { resolveServers } from './servers.js';

/** Starts MySQL and MariaDB unless SARGABLE_TEST_*_URL name existing ones; returns the teardown. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const servers = await resolveServers();
  project.provide('servers', {
    mysql: servers.mysql.url,
    mariadb: servers.mariadb.url,
    mysqlReadOnly: servers.mysql.readOnlyUrl,
    mariadbReadOnly: servers.mariadb.readOnlyUrl,
  });
  return async function teardown() {
    await servers.stop();
  };
}
