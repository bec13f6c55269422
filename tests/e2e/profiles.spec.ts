// e2e against MySQL 8.0.33: connection profiles (create, Test connection, connect), production confirmations, reconnect state.
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import mysql from 'mysql2/promise';
import { createClient, httpTransport } from '../../src/shared/client.js';
import { e2ePort, e2eToken, mysqlTestUrl } from './helpers/env.js';
import { openWorkbench, setEditorText } from './helpers/workbench.js';

const suffix = randomBytes(4).toString('hex');
const database = `sargable_profiles_${suffix}`;
const profileName = `Shop prod ${suffix}`;
/** A user of its own, so the spec can lock it (reconnects fail) without touching the shared admin account. */
const appUser = `sargable_e2e_${suffix}`;
const appPassword = `pw-${randomBytes(8).toString('hex')}`;
const api = createClient(
  httpTransport(process.env.SARGABLE_E2E_BASE_URL ?? `http://127.0.0.1:${e2ePort}`, e2eToken),
);

/** The app's server sessions: the spec's own user, in the test database. */
async function appThreads(admin: mysql.Connection): Promise<number[]> {
  const [rows] = (await admin.query(
    'SELECT ID FROM information_schema.PROCESSLIST WHERE USER = ? AND DB = ? ORDER BY ID',
    [appUser, database],
  )) as unknown as [{ ID: number }[]];
  return rows.map((row) => Number(row.ID));
}

async function fillProfile(page: Page, fields: Record<string, string>): Promise<void> {
  const editor = page.getByTestId('profile-editor');
  for (const [label, value] of Object.entries(fields))
    await editor.getByLabel(label, { exact: true }).fill(value);
}

test.describe.serial('Connection profiles against MySQL 8.0.33', () => {
  test.beforeAll(async () => {
    const admin = await mysql.createConnection({ uri: mysqlTestUrl().href, multipleStatements: true });
    try {
      await admin.query(`CREATE DATABASE \`${database}\`; USE \`${database}\`;
        CREATE TABLE products (id int unsigned NOT NULL AUTO_INCREMENT, price decimal(8,2) DEFAULT NULL,
          create_time timestamp NULL DEFAULT NULL, PRIMARY KEY (id)) ENGINE=InnoDB;
        SET SESSION cte_max_recursion_depth = 5000;
        INSERT INTO products (price, create_time)
          WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
          SELECT (i % 60) + 1, TIMESTAMP('2019-01-01') + INTERVAL i * 2 HOUR FROM n;
        ANALYZE TABLE products;
        CREATE USER '${appUser}'@'%' IDENTIFIED BY '${appPassword}';
        GRANT ALL PRIVILEGES ON *.* TO '${appUser}'@'%';`);
    } finally {
      await admin.end();
    }
  });

  test.afterAll(async () => {
    const { profiles } = await api['profiles.list']().catch(() => ({ profiles: [] }));
    for (const profile of profiles.filter((candidate) => candidate.name.endsWith(suffix)))
      await api['profiles.delete']({ id: profile.id }).catch(() => undefined);
    const admin = await mysql.createConnection(mysqlTestUrl().href);
    try {
      await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await admin.query(`DROP USER IF EXISTS '${appUser}'@'%'`);
    } finally {
      await admin.end();
    }
  });

  test('create a profile, Test connection shows TLS and missing GRANTs, connect; production asks for the name before what-if and kill', async ({
    page,
  }) => {
    const url = mysqlTestUrl();
    const readOnly = new URL(process.env.SARGABLE_TEST_MYSQL_RO_URL ?? url.href);
    await openWorkbench(page);
    await expect(page.getByTestId('profiles-sidebar')).toBeVisible();

    // New profile from the sidebar: every field of the issue is in the editor.
    await page.getByTestId('sidebar-new-profile').click();
    const dialog = page.getByTestId('connection-dialog');
    await expect(dialog.getByTestId('profiles-tab')).toHaveAttribute('aria-selected', 'true');
    await fillProfile(page, {
      'Profile name': profileName,
      'Server host': readOnly.hostname,
      'Server port': readOnly.port,
      'Server user': decodeURIComponent(readOnly.username),
      'Server password': decodeURIComponent(readOnly.password),
      'Default schema': database,
    });
    const editor = page.getByTestId('profile-editor');
    await editor.getByLabel('Color tag').selectOption('red');
    await editor.getByLabel('TLS', { exact: true }).selectOption('required');
    await expect(editor.getByLabel('CA file (PEM path on this machine)')).toBeVisible();
    await editor.getByTestId('profile-use-ssh').check();
    await expect(editor.getByLabel('SSH authentication')).toHaveValue('key');
    await editor.getByLabel('SSH authentication').selectOption('agent');
    await editor.getByTestId('profile-use-ssh').uncheck();
    await editor.getByTestId('profile-allow-what-if').check();
    await editor.getByTestId('profile-production').check();
    // Web mode has no keychain: the editor says the password is not saved, and why.
    await expect(editor.getByTestId('no-keychain')).toContainText('Web mode cannot reach the OS keychain');

    // Test connection with the least-privilege user: version, TLS in use, what is missing and the GRANTs.
    await editor.getByTestId('profile-test').click();
    const result = editor.getByTestId('profile-test-result');
    await expect(result.getByTestId('profile-test-server')).toHaveText('MySQL 8.0.33');
    await expect(result.getByTestId('profile-test-tls')).toContainText('in use');
    await expect(result.getByTestId('profile-test-tls')).toContainText('TLSv1.');
    if (process.env.SARGABLE_TEST_MYSQL_RO_URL) {
      await expect(result.getByTestId('profile-test-grants')).toContainText('GRANT');
      await expect(result.getByTestId('profile-test-feature').filter({ hasText: '✗' }).first()).toBeVisible();
    }
    await result.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'docs/screenshots/profiles.png' });

    // Switch to an account with every privilege (what-if and kill need them), save and connect.
    await fillProfile(page, { 'Server user': appUser, 'Server password': appPassword });
    await editor.getByTestId('profile-connect').click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('production-badge')).toBeVisible();
    await expect(page.getByTestId('status-connection')).toContainText(profileName);
    const entry = page.getByTestId('sidebar-profile').filter({ hasText: profileName });
    await expect(entry.locator('.color-tag--red')).toBeVisible();
    await expect(entry.getByRole('button', { name: new RegExp(`^${profileName}`) })).toHaveAttribute(
      'aria-current',
      'true',
    );

    // The password was never stored and never comes back: the list says so, and the file has no secrets.
    const { profiles, secrets } = await api['profiles.list']();
    const saved = profiles.find((profile) => profile.name === profileName)!;
    expect({ hasPassword: saved.hasPassword, available: secrets.available }).toEqual({
      hasPassword: false,
      available: false,
    });
    expect(JSON.stringify(profiles)).not.toContain(appPassword);

    // What-if on production: the DDL is shown, and Build stays disabled until the name is typed.
    await setEditorText(page, 'SELECT AVG(price) FROM products WHERE MONTH(create_time)=10;');
    await page.keyboard.press('ControlOrMeta+Enter');
    await page
      .locator('[data-testid=suggestion][data-kind=functional-index]')
      .first()
      .getByTestId('verify')
      .click();
    const whatIf = page.getByTestId('what-if-dialog');
    await expect(whatIf.getByTestId('what-if-steps')).toContainText('ADD INDEX');
    await expect(whatIf.getByTestId('production-confirm')).toContainText(profileName);
    await expect(whatIf.getByTestId('what-if-run')).toBeDisabled();
    await whatIf.getByTestId('production-confirm-input').fill('Shop prod');
    await expect(whatIf.getByTestId('what-if-run')).toBeDisabled();
    await whatIf.getByTestId('production-confirm-input').fill(profileName);
    await page.screenshot({ path: 'docs/screenshots/production-confirm.png' });
    await whatIf.getByTestId('what-if-run').click();
    await expect(whatIf.getByTestId('what-if-verdict')).toContainText('Improved');
    await whatIf.getByRole('button', { name: 'Close' }).click();

    // Kill on production: a real lock wait, the kill confirmation also demands the name.
    const admin = await mysql.createConnection(url.href);
    const holder = await mysql.createConnection({ uri: url.href, database });
    const waiter = await mysql.createConnection({ uri: url.href, database });
    try {
      await holder.query('START TRANSACTION');
      await holder.query('SELECT * FROM products WHERE id = 7 FOR UPDATE');
      await waiter.query('SET SESSION innodb_lock_wait_timeout = 50');
      const waiting = waiter.query('SELECT * FROM products WHERE id = 7 FOR UPDATE').catch(() => undefined);
      await page.getByTestId('panel-tab-locks').click();
      await page.locator('[data-testid=locks-node][data-depth="0"]').click();
      await page.getByTestId('kill-connection').click();
      const confirm = page.getByTestId('kill-confirm');
      await expect(confirm.getByTestId('production-confirm')).toContainText(profileName);
      await expect(confirm.getByTestId('confirm-ok')).toBeDisabled();
      await confirm.getByTestId('production-confirm-input').fill(profileName);
      await confirm.getByTestId('confirm-ok').click();
      await expect(page.getByText(`KILL CONNECTION ${holder.threadId} sent.`)).toBeVisible();
      await waiting;

      // The browser cannot skip the dialog: the bridge itself refuses a write without the name.
      const opened = await api['profiles.connect']({
        id: saved.id,
        password: appPassword,
      });
      await expect(
        api['locks.kill']({
          connectionId: opened.connectionId,
          threadId: waiter.threadId,
          scope: 'query',
          confirmed: true,
        }),
      ).rejects.toMatchObject({ code: 'CONSENT_REQUIRED' });
      await api['connection.close']({ connectionId: opened.connectionId });
      const [alive] = (await admin.query('SELECT ID FROM information_schema.PROCESSLIST WHERE ID = ?', [
        waiter.threadId,
      ])) as unknown as [unknown[]];
      expect(alive).toHaveLength(1);
    } finally {
      await holder.end().catch(() => undefined);
      await waiter.end().catch(() => undefined);
      await admin.end();
    }
  });

  test('the sidebar asks for the password and says why; a killed session shows reconnecting, then connected', async ({
    page,
  }) => {
    const url = mysqlTestUrl();
    await openWorkbench(page);
    await page
      .getByTestId('sidebar-profile')
      .filter({ hasText: profileName })
      .getByRole('button')
      .first()
      .click();
    const prompt = page.getByTestId('password-prompt');
    await expect(prompt.getByTestId('password-prompt-why')).toContainText('asked each time');
    await prompt.getByLabel(/^Password for/).fill(appPassword);
    await prompt.getByRole('button', { name: 'Connect' }).click();
    await expect(prompt).toHaveCount(0);
    await expect(page.getByTestId('status-link')).toHaveText('connected');
    await page.getByTestId('panel-tab-locks').click();
    await expect(page.getByTestId('locks-status')).toContainText('live');

    // Drop the app's session from a second admin connection while its account is locked, so the
    // reconnect attempts fail (like a server that is still restarting); unlock it and the session heals.
    const admin = await mysql.createConnection(url.href);
    try {
      const threads = await appThreads(admin);
      expect(threads.length).toBeGreaterThan(0);
      await admin.query(`ALTER USER '${appUser}'@'%' ACCOUNT LOCK`);
      for (const thread of threads) await admin.query(`KILL CONNECTION ${thread}`);
      await expect(page.getByTestId('status-link')).toContainText(/reconnecting \(attempt [2-9]/);
      await expect(page.getByTestId('connection-banner')).toContainText('Connection interrupted');
      await expect(page.getByTestId('locks-status')).toContainText('paused: reconnecting');
      await page.screenshot({ path: 'docs/screenshots/reconnecting.png' });
      await admin.query(`ALTER USER '${appUser}'@'%' ACCOUNT UNLOCK`);
      await expect(page.getByTestId('status-link')).toHaveText('connected');
      await expect(page.getByTestId('connection-banner')).toContainText('Reconnected');
      await expect(page.getByTestId('locks-status')).toContainText('live');
      expect(await appThreads(admin)).not.toEqual(threads);
    } finally {
      await admin.query(`ALTER USER '${appUser}'@'%' ACCOUNT UNLOCK`).catch(() => undefined);
      await admin.end();
    }

    // Delete the profile from the editor (with its confirmation).
    await page
      .getByTestId('sidebar-profile')
      .filter({ hasText: profileName })
      .getByRole('button', { name: `Edit ${profileName}` })
      .click();
    const editor = page.getByTestId('profile-editor');
    await expect(editor.getByLabel('Profile name', { exact: true })).toHaveValue(profileName);
    await editor.getByTestId('profile-duplicate').click();
    await expect(editor.getByLabel('Profile name', { exact: true })).toHaveValue(`${profileName} (copy)`);
    await page.getByTestId('profile-list-item').filter({ hasText: profileName }).first().click();
    await page.getByTestId('profile-delete').click();
    await page.getByTestId('profile-delete-confirm').click();
    await expect(page.getByTestId('profile-list-item').filter({ hasText: profileName })).toHaveCount(0);
  });
});
