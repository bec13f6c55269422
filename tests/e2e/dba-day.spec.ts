// e2e (issue 18, a DBA's day at 1280×800): a plan shows only its own statement's findings; Top queries fits, adds up and is consistent.
import { expect, test, type Page } from '@playwright/test';
import mysql, { type RowDataPacket } from 'mysql2/promise';
import { useScratchDatabase } from './helpers/database.js';
import { mysqlTestUrl } from './helpers/env.js';
import { connectWithForm, formFromUrl, openWorkbench, setEditorText } from './helpers/workbench.js';

test('plan view: a node links the findings of its own statement, not those of another statement on the same table', async ({
  page,
}) => {
  await openWorkbench(page);
  await page.getByTestId('try-demo').click();
  // The first demo tab: two statements on products, each with its own FUN001 (MONTH() and YEAR()).
  await expect(page.getByTestId('editor-tab').nth(1)).toHaveAttribute('aria-selected', 'true');
  const fun001 = page
    .getByTestId('finding')
    .filter({ has: page.locator('[data-testid=finding-rule]', { hasText: 'FUN001' }) });
  await expect(fun001).toHaveCount(2);
  await page.getByTestId('panel-tab-plan').click();
  // The pasted plan is the MONTH() statement's: only its finding is linked.
  const node = page.getByTestId('plan-node').filter({ has: page.getByTestId('plan-node-table') });
  const links = node.getByTestId('plan-node-finding');
  await expect(links).toHaveCount(1);
  await expect(links).toContainText('MONTH');
  await expect(links).not.toContainText('YEAR');
});

/** Cells of the Top queries table whose text does not fit (fingerprints may be cut: they have a tooltip). */
async function cutCells(page: Page): Promise<string[]> {
  return page.getByTestId('top-table').evaluate((table) =>
    [...table.querySelectorAll<HTMLElement>('th, td')]
      .filter((cell) => !cell.classList.contains('top__fingerprint') && !cell.closest('.top__pad'))
      .filter((cell) => !cell.classList.contains('top__col-fingerprint'))
      .filter((cell) => cell.scrollWidth > cell.clientWidth || cell.getBoundingClientRect().height > 30)
      .map((cell) => cell.textContent ?? ''),
  );
}

/** Controls of the Top queries toolbar that the progress line covers. */
async function coveredControls(page: Page): Promise<string[]> {
  const progress = await page.getByTestId('top-progress').boundingBox();
  if (!progress) throw new Error('no progress line');
  const covered: string[] = [];
  for (const control of await page.locator('.top__toolbar button, .top__toolbar input').all()) {
    const box = await control.boundingBox();
    if (!box) continue;
    const apart =
      box.x >= progress.x + progress.width ||
      progress.x >= box.x + box.width ||
      box.y >= progress.y + progress.height ||
      progress.y >= box.y + box.height;
    if (!apart) covered.push((await control.getAttribute('data-testid')) ?? (await control.innerText()));
  }
  return covered;
}

/**
 * Rows of the Top queries table wholly in view: inside the table's scroll box below its sticky
 * header, inside every clipping ancestor (the panel body scrolls too) and the window.
 */
async function rowsInView(page: Page): Promise<number> {
  return page.getByTestId('top-table').evaluate((table) => {
    let top = (table.querySelector('thead')?.getBoundingClientRect().bottom ?? 0) - 0.5;
    let bottom = window.innerHeight + 0.5;
    for (let node = table.parentElement; node; node = node.parentElement) {
      if (getComputedStyle(node).overflowY === 'visible') continue;
      const box = node.getBoundingClientRect();
      top = Math.max(top, box.top - 0.5);
      bottom = Math.min(bottom, box.bottom + 0.5);
    }
    return [...table.querySelectorAll('[data-testid=top-class]')].filter((row) => {
      const box = row.getBoundingClientRect();
      return box.height > 0 && box.top >= top && box.bottom <= bottom;
    }).length;
  });
}

test('Top queries at 1280×800: no column cut, the progress line covers no button, a "% total" column that adds up', async ({
  page,
}) => {
  expect(page.viewportSize()).toEqual({ width: 1280, height: 800 });
  await openWorkbench(page);
  await page.getByTestId('panel-tab-top').click();
  await page.getByTestId('top-path').fill('tests/fixtures/slowlogs/generated/mysql-workload.log');
  await page.getByTestId('top-start').click();
  await expect(page.getByTestId('top-progress')).toContainText('done');
  expect(await coveredControls(page)).toEqual([]);
  // The table has the room: 8 or more of the 15 rows in view with the timeline shown, more with it hidden.
  await expect(page.getByTestId('top-timeline')).toBeVisible();
  const withChart = await rowsInView(page);
  expect(withChart).toBeGreaterThanOrEqual(8);
  await page.getByTestId('top-chart-toggle').click();
  await expect(page.getByTestId('top-timeline')).toHaveCount(0);
  expect(await rowsInView(page)).toBeGreaterThan(withChart);
  await page.getByTestId('top-chart-toggle').click();
  await expect(page.getByTestId('top-timeline')).toBeVisible();
  await expect(page.getByTestId('top-col-share')).toHaveText('% total');
  expect(await cutCells(page)).toEqual([]);
  // Every class is in view (15 of them): their shares add up to 100 %.
  const shares = await page.getByTestId('top-class-share').allTextContents();
  const rows = await page.getByTestId('top-class').count();
  expect(shares).toHaveLength(rows);
  const sum = shares.reduce((total, text) => total + (text === '<0.1%' ? 0.05 : Number.parseFloat(text)), 0);
  expect(Math.abs(sum - 100)).toBeLessThan(rows * 0.1);
  // Sorted by total time: the shares go down.
  const values = shares.map((text) => (text === '<0.1%' ? 0.05 : Number.parseFloat(text)));
  expect(values).toEqual([...values].sort((a, b) => b - a));
  await page.getByTestId('top-class').first().click();
  expect(await cutCells(page)).toEqual([]);
  await page.screenshot({ path: 'docs/screenshots/top-queries-1280.png' });
});

/** `46.3 ms`, `1.20 s`, `36 µs` → seconds. */
function parseSeconds(text: string): number {
  const match = /^([\d.,]+)\s*(s|ms|µs)$/.exec(text.trim());
  if (!match) throw new Error(`not a time: ${text}`);
  const value = Number(match[1]!.replace(/,/g, ''));
  return match[2] === 's' ? value : match[2] === 'ms' ? value / 1000 : value / 1_000_000;
}

test.describe('against MySQL 8.0.33', () => {
  const database = useScratchDatabase(
    'sargable_dba_top',
    `CREATE TABLE orders_day (id INT PRIMARY KEY AUTO_INCREMENT, note VARCHAR(40), amount INT);
INSERT INTO orders_day (note, amount) VALUES ('a', 1), ('b', 2), ('c', 3), ('x', 4);`,
  );

  test('live digests: 95th never above max, max marked as since first seen, the capture’s own polling not listed', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await openWorkbench(page);
    await connectWithForm(page, formFromUrl(mysqlTestUrl(), database));
    await page.getByTestId('panel-tab-top').click();
    await page.getByTestId('top-source-digests').check();
    await page.getByTestId('top-window').fill('8');
    await page.getByTestId('top-start').click();
    await expect(page.getByTestId('top-progress')).toContainText('capturing');
    const connection = await mysql.createConnection({ uri: mysqlTestUrl().href, database });
    try {
      const until = Date.now() + 3000;
      while (Date.now() < until) {
        await connection.query("SELECT * FROM orders_day WHERE note = 'x'");
        await connection.query('SELECT SLEEP(0.01) FROM orders_day WHERE id = 2');
      }
    } finally {
      await connection.end();
    }
    // The window ends (the live window's summary reads '0 statements' from its first moment: wait for the end).
    await expect(page.getByTestId('top-live-state')).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByTestId('top-summary')).toContainText('statements');
    // 95th is the window's own on MySQL (histogram deltas: no '*') unless a class could not be measured.
    await expect(page.getByTestId('top-sort-p95')).toContainText('95th');
    await expect(page.getByTestId('top-sort-max')).toContainText('Max*');
    await expect(page.getByTestId('top-lifetime-note')).toBeVisible();
    const fingerprints = await page.locator('[data-testid=top-class] td.top__fingerprint').allTextContents();
    expect(fingerprints.some((text) => text.includes('orders_day'))).toBe(true);
    expect(fingerprints.filter((text) => /performance_schema/i.test(text))).toEqual([]);
    // The columns by their headers (a Trend column joins once the history has earlier windows).
    const headers = await page.locator('[data-testid=top-table] thead th').allTextContents();
    const p95At = headers.findIndex((text) => text.startsWith('95th'));
    const maxAt = headers.findIndex((text) => text.startsWith('Max'));
    expect([p95At, maxAt].every((at) => at > 0)).toBe(true);
    for (const row of await page.getByTestId('top-class').all()) {
      const cells = await row.locator('td').allTextContents();
      const [p95, max] = [cells[p95At]!, cells[maxAt]!];
      if (p95 === '—' || max === '—') continue;
      expect(parseSeconds(p95)).toBeLessThanOrEqual(parseSeconds(max));
    }
    expect(await cutCells(page)).toEqual([]);
  });
});

test.describe('Visual Explain detail against MySQL 8.0.33', () => {
  const database = useScratchDatabase(
    'sargable_dba_plan',
    `CREATE TABLE c (id INT PRIMARY KEY, region VARCHAR(10), KEY region (region)) STATS_AUTO_RECALC=0;
CREATE TABLE o (id INT PRIMARY KEY AUTO_INCREMENT, customer INT NOT NULL, status CHAR(1), amount INT,
  KEY cust_status (customer, status)) STATS_AUTO_RECALC=0;
INSERT INTO c VALUES (1, 'eu'), (2, 'us'), (3, 'eu');
INSERT INTO o (customer, status, amount) VALUES (1, 'a', 1), (2, 'b', 2), (3, 'a', 3);
ANALYZE TABLE c, o;
INSERT INTO o (customer, status, amount)
  WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 500)
  SELECT 1 + n % 3, 'a', n + 10 FROM seq;`,
  );

  test('per node: access type by cost class, key_len with its key parts, ref, rows × filtered, prefix cost; ANALYZE flags a 10× miss', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await openWorkbench(page);
    await connectWithForm(page, formFromUrl(mysqlTestUrl(), database));
    await setEditorText(
      page,
      "SELECT c.region, o.amount FROM c JOIN o ON o.customer = c.id AND o.status = 'a' WHERE c.region = 'eu' AND o.amount < 3;",
    );
    await page.keyboard.press('ControlOrMeta+E');
    const tables = page.getByTestId('plan-node').filter({ has: page.getByTestId('plan-node-table') });
    await expect(tables).toHaveCount(2);
    const o = tables.filter({ has: page.getByTestId('plan-node-table').getByText('o', { exact: true }) });
    const c = tables.filter({ has: page.getByTestId('plan-node-table').getByText('c', { exact: true }) });
    await expect(c.getByTestId('plan-node-access')).toHaveAttribute('data-cost', 'low');
    await expect(o.getByTestId('plan-node-keylen')).toHaveText('key_len 9 (customer, status)');
    await expect(o.getByTestId('plan-node-ref')).toContainText('c.id, const');
    await expect(o.getByTestId('plan-node-passed')).toContainText('% =');
    await expect(o.getByTestId('plan-node-prefix-cost')).toContainText('prefix cost');
    await expect(page.getByTestId('plan-node-miss')).toHaveCount(0);
    const splitter = page.getByRole('separator', { name: 'Resize panels' });
    await splitter.focus();
    for (let index = 0; index < 8; index++) await page.keyboard.press('ArrowUp');
    await page.screenshot({ path: 'docs/screenshots/visual-explain-detail.png' });

    // EXPLAIN ANALYZE: MySQL guessed a third of o passes amount < 3 (56 rows per loop; 0.5 did): flagged.
    await page.getByTestId('plan-analyze').click();
    await page.getByTestId('analyze-confirm').getByRole('button', { name: 'Execute and measure' }).click();
    const miss = page.getByTestId('plan-node-miss').first();
    await expect(miss).toBeVisible();
    expect(Number(await miss.getAttribute('data-factor'))).toBeGreaterThanOrEqual(10);
    await expect(miss.getByTestId('plan-node-advice')).toContainText('ANALYZE TABLE `o`;');
    await miss.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'docs/screenshots/visual-explain-analyze.png' });
  });
});

test('theme: a manual light/dark switch overrides the OS setting, follows it again on "system", and is remembered', async ({
  page,
}) => {
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = 'rgb(244, 245, 247)';
  const dark = 'rgb(20, 22, 27)';
  await openWorkbench(page);
  const toggle = page.getByTestId('theme-toggle');
  await expect(toggle).toHaveAttribute('data-theme-preference', 'system');
  expect(await background()).toBe(light); // the OS (emulated) is light
  await toggle.click();
  await expect(toggle).toHaveAttribute('data-theme-preference', 'light');
  expect(await background()).toBe(light);
  await toggle.click();
  await expect(toggle).toHaveAttribute('data-theme-preference', 'dark');
  expect(await background()).toBe(dark);
  await expect(page.locator('.monaco-editor').first()).toHaveClass(/vs-dark/);
  await page.screenshot({ path: 'docs/screenshots/theme-dark.png' });
  // Remembered across a reload.
  await page.reload();
  await expect(page.getByTestId('theme-toggle')).toHaveAttribute('data-theme-preference', 'dark');
  expect(await background()).toBe(dark);
  // Back to "system": follows the OS, which is now dark; "light" then wins over the dark OS.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByTestId('theme-toggle').click();
  await expect(page.getByTestId('theme-toggle')).toHaveAttribute('data-theme-preference', 'system');
  expect(await background()).toBe(dark);
  await page.getByTestId('theme-toggle').click();
  await expect(page.getByTestId('theme-toggle')).toHaveAttribute('data-theme-preference', 'light');
  expect(await background()).toBe(light);
  await expect(page.locator('.monaco-editor').first()).not.toHaveClass(/vs-dark/);
});

test('Change connection… opens with the values of the connection in use (never its password)', async ({
  page,
}) => {
  const url = mysqlTestUrl();
  const form = formFromUrl(url, 'mysql');
  await openWorkbench(page);
  await connectWithForm(page, form);
  await page.getByTestId('open-connect').click();
  const dialog = page.getByTestId('connection-dialog');
  await expect(dialog.getByLabel('Host')).toHaveValue(form.host);
  await expect(dialog.getByLabel('Port')).toHaveValue(String(form.port));
  await expect(dialog.getByLabel('User')).toHaveValue(form.user);
  await expect(dialog.getByLabel('Database')).toHaveValue('mysql');
  await expect(dialog.getByLabel('Password')).toHaveValue('');
  // Retyping only the password reconnects.
  await dialog.getByLabel('Password').fill(form.password);
  await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('status-connection')).toContainText(`${form.user}@${form.host}:${form.port}`);
});

test('Modes panel: IGNORE_SPACE in our session is marked as this app’s client, not the server’s setting', async ({
  page,
}) => {
  // What the server gives a plain session, and what it gives ours (mysql2 connects with CLIENT_IGNORE_SPACE).
  const probe = await mysql.createConnection(mysqlTestUrl().href);
  const [rows] = await probe.query<RowDataPacket[]>(
    'SELECT @@GLOBAL.sql_mode AS global, @@SESSION.sql_mode AS session',
  );
  await probe.end();
  expect(String(rows[0]!.global).split(',')).not.toContain('IGNORE_SPACE');
  expect(String(rows[0]!.session).split(',')).toContain('IGNORE_SPACE');
  await openWorkbench(page);
  await connectWithForm(page, formFromUrl(mysqlTestUrl(), 'mysql'));
  await page.getByTestId('panel-tab-modes').click();
  await page.getByTestId('modes-load').click();
  const session = page.getByTestId('modes-scope-session');
  const ignoreSpace = session.locator('li', { has: page.locator('code', { hasText: /^IGNORE_SPACE$/ }) });
  await expect(ignoreSpace.getByTestId('modes-from-client')).toHaveText("this app's client");
  await expect(ignoreSpace).not.toContainText('not default');
  await expect(session.getByTestId('modes-client-note')).toContainText('not the server');
  await expect(page.getByTestId('modes-scope-global')).not.toContainText('IGNORE_SPACE');
});
