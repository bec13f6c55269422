// e2e (web mode in Chromium): the SQL file panel analyses a file of tens of MB that never enters the
// editor. The page uploads the picked file; main streams it through the analysis (a job): a progress
// bar with counts, then the findings grouped by rule with their line numbers; a click opens one statement
// in a new editor tab; a second run is cancelled mid-way and says what was analysed. A typed path to a
// secret is refused by the API the panel uses, and the canary never reaches the page.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { openWorkbench } from './helpers/workbench.js';

/**
 * Blocks of three lines: a 64 KB comment (a dump's commented-out data: read, never parsed), an extended
 * INSERT of 150 rows, and a query with a FUN001 finding; ~30 MB in all.
 */
const BLOCKS = 420;
let dir: string;
let file: string;

test.beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sargable-e2e-sqlfile-'));
  file = path.join(dir, 'workload.sql');
  const rows = Array.from(
    { length: 150 },
    (_, i) => `(${i},${i % 97},'status ${i % 7}','a note; with ''quotes''',  '2024-01-01 10:00:00')`,
  ).join(',');
  const lines = [
    'CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, status VARCHAR(20), note VARCHAR(200), created DATETIME);',
  ];
  const comment = `-- ${'commented out; data '.repeat(3200)}`;
  for (let block = 0; block < BLOCKS; block++) {
    lines.push(comment);
    lines.push(`INSERT INTO orders VALUES ${rows};`);
    lines.push(`SELECT id FROM orders WHERE YEAR(created) = ${2000 + block};`);
  }
  // A broken statement near the end: reported at its line, the statement after it still analysed.
  lines.push('SELECT FROM WHERE orders id = ;');
  lines.push('SELECT id FROM orders WHERE DATE(created) = CURDATE();');
  writeFileSync(file, `${lines.join('\n')}\n`);
});

test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a file of tens of MB: progress, findings with their lines, one statement opened; a cancel says what was done', async ({
  page,
}) => {
  test.setTimeout(240_000);
  expect(statSync(file).size).toBeGreaterThan(25 * 1024 * 1024);
  await openWorkbench(page);
  await page.getByTestId('panel-tab-file').click();
  await expect(page.getByTestId('sqlfile-empty')).toContainText('Large file analysis');

  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByTestId('sqlfile-choose').click(),
  ]);
  await chooser.setFiles(file);
  // Progress while it runs: the bar, bytes of the total, statements and findings so far.
  await expect(page.getByTestId('sqlfile-progress-text')).toContainText(
    /Analysing workload\.sql: .* of .* MB/,
    {
      timeout: 60_000,
    },
  );
  await expect(page.getByTestId('sqlfile-summary')).toContainText(
    `workload.sql: ${(2 + 2 * BLOCKS).toLocaleString('en-US')} statements`,
    { timeout: 180_000 },
  );
  await expect(page.getByTestId('sqlfile-summary')).toContainText('1 statement error');
  const total = Number(
    /([\d,]+) findings/
      .exec((await page.getByTestId('sqlfile-summary').textContent()) ?? '')?.[1]
      ?.replace(/,/g, ''),
  );
  expect(total).toBeGreaterThan(BLOCKS);

  // FUN001: one finding per block on its query line (4 + 3 * block), and the DATE() one on the last line.
  const fun = page.locator('[data-testid="sqlfile-rule"][data-rule="FUN001"]');
  await expect(fun.getByTestId('sqlfile-rule-count')).toHaveText(String(BLOCKS + 1));
  const items = page.locator('[data-testid="sqlfile-finding"][data-rule="FUN001"]');
  await expect(items.first()).toHaveAttribute('data-line', '4');
  await expect(items.nth(1)).toHaveAttribute('data-line', '7');
  await expect(items.nth(1)).toContainText('SELECT id FROM orders WHERE YEAR(created) = 2001');
  // The list is virtualised: only the rows in view are in the page, not all of them.
  expect(await items.count()).toBeLessThan(BLOCKS);
  // Groups fold: with the other rules folded, the end of the list shows FUN001's last finding (the
  // file's last line) and the statement error before it.
  const list = page.getByTestId('sqlfile-list');
  await fun.click();
  for (const other of await page.locator('[data-testid="sqlfile-rule"]:not([data-rule="FUN001"])').all())
    await other.click();
  await fun.click();
  await expect(page.locator('[data-testid="sqlfile-rule"][aria-expanded="true"]')).toHaveCount(1);
  await list.evaluate((element) => (element.scrollTop = element.scrollHeight));
  const lastLine = 1 + 3 * BLOCKS + 2;
  await expect(page.locator(`[data-testid="sqlfile-finding"][data-line="${lastLine}"]`)).toContainText(
    'DATE(created) = CURDATE()',
  );
  await expect(page.getByTestId('sqlfile-error-item')).toHaveAttribute('data-line', String(lastLine - 1));

  // A click opens just that statement in a new editor tab.
  await list.evaluate((element) => (element.scrollTop = 0));
  await items.nth(1).click();
  await expect(page.locator('.monaco-editor .view-lines')).toContainText(
    'SELECT id FROM orders WHERE YEAR(created) = 2001;',
  );
  await expect(page.locator('.monaco-editor .view-lines')).not.toContainText('INSERT INTO orders');

  // Again, cancelled mid-way: the note says how far it got, the findings are those of that part.
  await page.getByTestId('panel-tab-file').click();
  const [again] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByTestId('sqlfile-choose').click(),
  ]);
  await again.setFiles(file);
  await expect(page.getByTestId('sqlfile-progress-text')).toContainText(/[1-9][\d,]* statements/, {
    timeout: 60_000,
  });
  await page.getByTestId('sqlfile-cancel').click();
  await expect(page.getByTestId('sqlfile-partial')).toContainText(
    /Cancelled after .* MB \(\d+%\): the findings below are those of the first/,
    {
      timeout: 30_000,
    },
  );
  // The summary counts the findings of the part read: some, fewer than the whole file's.
  const summaryText = (await page.getByTestId('sqlfile-summary').textContent()) ?? '';
  const partial = Number(/([\d,]+) findings?/.exec(summaryText)?.[1]?.replace(/,/g, ''));
  expect(partial).toBeGreaterThan(0);
  expect(partial).toBeLessThan(total);
});

test('the panel opens only picked files: a typed secret path is refused and its content never shows', async ({
  page,
}) => {
  await openWorkbench(page);
  // A secret outside the folders web mode allows (tests/fixtures and the temp dir): under the home dir.
  const home = mkdtempSync(path.join(os.homedir(), '.sargable-e2e-secret-'));
  const canary = `CANARY${Date.now()}PRIVATE`;
  const secret = path.join(home, 'secret.sql');
  // Analysed, the canary would come back in a finding's excerpt.
  writeFileSync(secret, `SELECT '${canary}' FROM t WHERE YEAR(d) = 1;\n`, { mode: 0o600 });
  try {
    // What a script on the page could send: the same request the panel sends, with a path instead of a grant.
    const reply = await page.evaluate(async (ref) => {
      const response = await fetch('/rpc/sqlFile.analyze', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        credentials: 'same-origin',
        body: JSON.stringify({ ref }),
      });
      return response.text();
    }, secret);
    expect(JSON.parse(reply)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(reply).toContain('opens only files you choose');
    expect(reply).not.toContain(canary);
    await expect(page.locator('body')).not.toContainText(canary);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('a file with no statement, and a compressed file: the panel says what happened and what to do', async ({
  page,
}) => {
  await openWorkbench(page);
  await page.getByTestId('panel-tab-file').click();
  const notes = path.join(dir, 'notes.sql');
  writeFileSync(notes, '-- only a note\n/* and a comment */\n');
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByTestId('sqlfile-choose').click(),
  ]);
  await chooser.setFiles(notes);
  await expect(page.getByTestId('sqlfile-no-findings')).toContainText(
    'notes.sql holds no SQL statement (only comments or white space).',
  );
  const gz = path.join(dir, 'dump.sql.gz');
  writeFileSync(gz, gzipSync('SELECT 1;\n'));
  const [again] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByTestId('sqlfile-choose').click(),
  ]);
  await again.setFiles(gz);
  await expect(page.getByTestId('sqlfile-error')).toContainText(
    'dump.sql.gz is gzip-compressed, not SQL text.',
  );
  await expect(page.getByTestId('sqlfile-error')).toContainText('gunzip');
});
