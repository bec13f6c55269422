// e2e (no server): Try it demo, pasted EXPLAIN, command palette, statement-at-cursor vs all, F8, tabs, quick fix, About, Modes, Export.
import { expect, test, type Page } from '@playwright/test';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openWorkbench, setEditorText, squiggles, workOffline } from './helpers/workbench.js';

const productsDdl = `CREATE TABLE products (
  id int unsigned NOT NULL AUTO_INCREMENT,
  description longtext,
  price decimal(8,2) DEFAULT NULL,
  create_time timestamp NULL DEFAULT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;`;

/** Put the editor cursor at the end of a 1-based line. */
async function cursorToLine(page: Page, line: number): Promise<void> {
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('ControlOrMeta+Home');
  for (let index = 1; index < line; index++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
}

test('Try it: the demo shows findings, a plan from pasted EXPLAIN linked to its finding, and an export', async ({
  page,
}) => {
  await openWorkbench(page);
  await page.getByTestId('try-demo').click();
  await expect(page.getByTestId('status-connection')).toHaveText('offline — MySQL 8.0.33');
  await expect(page.getByTestId('editor-tab')).toHaveCount(4);
  await expect(page.getByTestId('editor-tab').nth(1)).toHaveAttribute('aria-selected', 'true');
  const findings = page.getByTestId('finding');
  await expect(findings.first()).toBeVisible();
  await expect(
    findings.filter({ has: page.locator('[data-testid=finding-rule]', { hasText: 'FUN001' }) }),
  ).toHaveCount(2);
  await page.screenshot({ path: 'docs/screenshots/demo-findings.png' });

  await page.getByTestId('panel-tab-plan').click();
  const node = page.getByTestId('plan-node').filter({ has: page.getByTestId('plan-node-table') });
  await expect(node).toHaveCount(1);
  await expect(node.getByTestId('plan-node-table')).toHaveText('products');
  await expect(node.getByTestId('plan-node-access')).toHaveText('ALL');
  await expect(node).toHaveAttribute('data-tone', 'bad');
  await expect(node.getByTestId('plan-flag').first()).toHaveText('full-scan');
  const link = node.getByTestId('plan-node-finding');
  await expect(link.first()).toContainText('FUN001');
  await page.screenshot({ path: 'docs/screenshots/demo-plan.png' });
  await link.first().click();
  await expect(page.getByTestId('findings-panel')).toBeVisible();
  await expect(page.locator('[data-testid=finding].is-selected')).toHaveCount(1);

  const exportTab = page.getByTestId('panel-tab-export');
  await expect(exportTab).toBeVisible();
  await exportTab.click();
  await expect(page.getByTestId('export-table').first()).toBeVisible();
  const splitter = page.getByRole('separator', { name: 'Resize panels' });
  await splitter.focus();
  for (let index = 0; index < 6; index++) await page.keyboard.press('ArrowUp');
  await expect(page.getByTestId('code-view')).toContainText('-- Table products');
  await expect(page.getByTestId('code-view')).toContainText('+ INDEX `idx_products_month_create_time`');
  await page.screenshot({ path: 'docs/screenshots/export.png' });
  const script = await page.getByTestId('code-view').textContent();
  await page.getByTestId('export-rollback').click();
  await expect(page.getByTestId('code-view')).not.toHaveText(script ?? '');
  await expect(page.getByTestId('code-view')).toContainText('DROP');

  // Save the workspace as a file, then refuse to open a corrupt one (and leave it untouched).
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sargable-e2e-'));
  const file = path.join(dir, 'review.sargable.json');
  await page.getByTestId('workspace-file-path').fill(file);
  await page.getByTestId('workspace-save-as').click();
  await expect(page.getByTestId('workspace-file-status')).toContainText('Saved a copy to');
  const saved = JSON.parse(await readFile(file, 'utf8')) as { items: unknown[] };
  expect(saved.items.length).toBeGreaterThan(0);
  const corrupt = path.join(dir, 'corrupt.sargable.json');
  await writeFile(corrupt, '{ not json');
  await page.getByTestId('workspace-file-path').fill(corrupt);
  await page.getByTestId('workspace-open').click();
  await expect(page.getByTestId('export-error')).toBeVisible();
  expect(await readFile(corrupt, 'utf8')).toBe('{ not json');
});

test('offline: Ctrl+E opens Paste EXPLAIN and the seed block renders as a plan tree; raw view keeps the text', async ({
  page,
}) => {
  await openWorkbench(page);
  await expect(page.getByTestId('findings-empty')).toContainText('Try it');
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('ControlOrMeta+E');
  const dialog = page.getByTestId('paste-explain-dialog');
  await expect(dialog).toBeVisible();
  // Bad input first: the error says what is accepted, where it happened.
  await dialog.getByLabel('EXPLAIN output').fill('this is not a plan');
  await dialog.getByTestId('paste-explain-submit').click();
  await expect(dialog.getByTestId('paste-explain-error')).toContainText('PARSE_FAILED');
  const seed = await readFile('tests/fixtures/explain/seed/1-no-index.txt', 'utf8');
  await dialog.getByLabel('EXPLAIN output').fill(seed);
  await dialog.getByTestId('paste-explain-submit').click();
  await expect(dialog).toHaveCount(0);
  const node = page.getByTestId('plan-node').filter({ has: page.getByTestId('plan-node-table') });
  await expect(node.getByTestId('plan-node-access')).toHaveText('ALL');
  await expect(node).toContainText('99,015');
  await expect(page.getByTestId('plan-format')).toContainText('pasted');
  await page.getByTestId('plan-view-raw').click();
  await expect(page.getByTestId('plan-raw')).toContainText('possible_keys: NULL');
});

test('command palette lists every action with its shortcut and runs the chosen one', async ({ page }) => {
  await openWorkbench(page);
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('ControlOrMeta+Shift+P');
  const palette = page.getByTestId('command-palette');
  await expect(palette).toBeVisible();
  const items = palette.getByTestId('palette-item');
  for (const title of [
    'Analyze statement at cursor',
    'Analyze all statements in the tab',
    'Next finding',
    'Paste EXPLAIN output…',
    'New editor tab',
    'About Sargable',
  ]) {
    await expect(
      items.filter({ has: page.locator('.palette__title', { hasText: new RegExp(`^${title}$`) }) }),
    ).toHaveCount(1);
  }
  await expect(items.filter({ hasText: 'Next finding' }).locator('kbd')).toHaveText('F8');
  await expect(items.filter({ hasText: /^Analyze statement at cursor/ }).locator('kbd')).toHaveText(
    /Ctrl\+Enter|⌘Enter/,
  );
  await expect(items.filter({ hasText: 'EXPLAIN ANALYZE' })).toHaveAttribute('aria-disabled', 'true');
  // Every button of the main toolbar, every panel tab and the sidebar's profile management have an
  // entry: an unmapped toolbar button or a panel without "Show … panel" fails here.
  const commandOf: Record<string, string[]> = {
    'open-connect': ['connect'],
    disconnect: ['disconnect'],
    'try-demo': ['demo'],
    'open-palette': ['palette'],
    explain: ['explain', 'paste-explain'],
    analyze: ['analyze-all'],
    'theme-toggle': ['theme'],
  };
  const paletteIds = await items.evaluateAll((nodes) =>
    nodes.map((node) => node.getAttribute('data-command')),
  );
  const toolbar = await page
    .getByRole('toolbar', { name: 'Main' })
    .getByRole('button')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-testid') ?? node.textContent ?? ''));
  const panelTabs = await page
    .locator('[data-testid^="panel-tab-"]')
    .evaluateAll((nodes) =>
      nodes.map((node) => node.getAttribute('data-testid')!.replace('panel-tab-', 'panel-')),
    );
  const missing = [
    ...toolbar.filter((testId) => !(commandOf[testId] ?? []).some((id) => paletteIds.includes(id))),
    ...panelTabs.filter((id) => !paletteIds.includes(id)),
    ...['manage-profiles', 'apply-ddl', 'next-finding', 'new-tab', 'close-tab'].filter(
      (id) => !paletteIds.includes(id),
    ),
  ];
  expect({ toolbar: toolbar.length, panels: panelTabs.length, missing }).toEqual({
    toolbar: toolbar.length,
    panels: 9,
    missing: [],
  });
  // Apply DDL needs a server; offline it says so.
  await expect(palette.locator('[data-command="apply-ddl"]')).toHaveAttribute('aria-disabled', 'true');
  await page.screenshot({ path: 'docs/screenshots/command-palette.png' });
  await palette.getByRole('combobox').fill('about');
  await expect(items).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('about-version')).toHaveText(/^\d+\.\d+\.\d+/);
  // Manage profiles… opens the profiles editor.
  await page.keyboard.press('Escape');
  await page.keyboard.press('ControlOrMeta+Shift+P');
  await palette.getByRole('combobox').fill('manage profiles');
  await expect(items).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('connection-dialog').getByRole('tab', { selected: true })).toContainText(
    'Profiles',
  );
});

test('Ctrl+Enter analyzes the statement at the cursor, Shift+Ctrl+Enter all; F8 walks findings; tabs keep their markers', async ({
  page,
}) => {
  await openWorkbench(page);
  await workOffline(page, { flavor: 'MySQL', version: '8.0.33', schemaSql: productsDdl });
  await setEditorText(
    page,
    'SELECT id FROM products WHERE MONTH(create_time) = 10;\nSELECT id FROM products WHERE price + 1 > 10;\n',
  );
  await cursorToLine(page, 2);
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByTestId('finding')).toHaveCount(1);
  await expect(page.getByTestId('finding-rule')).toHaveText('ARI001');
  await expect(page.getByTestId('status-bar')).toContainText('in this statement');

  await page.keyboard.press('ControlOrMeta+Shift+Enter');
  await expect(page.getByTestId('finding-rule')).toHaveText(['FUN001', 'ARI001']);
  await expect(squiggles(page, 'warning')).toHaveCount(2);

  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.press('F8');
  await expect(page.locator('[data-testid=finding].is-selected [data-testid=finding-rule]')).toHaveText(
    'FUN001',
  );
  // The finding is selected in the editor (focused); F8 again moves on.
  await page.keyboard.press('F8');
  await expect(page.locator('[data-testid=finding].is-selected [data-testid=finding-rule]')).toHaveText(
    'ARI001',
  );

  await page.getByTestId('new-tab').click();
  await expect(page.getByTestId('editor-tab')).toHaveCount(2);
  await expect(page.getByTestId('findings-empty')).toBeVisible();
  await expect(squiggles(page, 'warning')).toHaveCount(0);
  await page.getByTestId('editor-tab').first().click();
  await expect(squiggles(page, 'warning')).toHaveCount(2);
  await expect(page.getByTestId('finding')).toHaveCount(2);
});

test('quick fix (Ctrl+.) applies an equivalent rewrite to the statement in the editor', async ({ page }) => {
  await openWorkbench(page);
  await workOffline(page, { flavor: 'MySQL', version: '8.0.33', schemaSql: productsDdl });
  await setEditorText(page, 'SELECT id FROM products WHERE YEAR(create_time) = 2019 AND price > 3;');
  await page.keyboard.press('ControlOrMeta+Enter');
  // FUN001 for YEAR(create_time); IDX001 (info) because price has no index.
  await expect(page.getByTestId('finding-rule')).toHaveText(['FUN001', 'IDX001']);
  // Put the cursor inside YEAR(…) and open the quick fixes.
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('Home');
  for (let index = 0; index < 32; index++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ControlOrMeta+.');
  const action = page.locator('.action-widget').getByText('Apply the equivalent rewrite (Sargable)');
  await expect(action).toBeVisible();
  await page.screenshot({ path: 'docs/screenshots/quick-fix.png' });
  await action.click();
  await expect(page.locator('.monaco-editor .view-lines')).toContainText("create_time` >= '2019-01-01'");
  await expect(page.locator('.monaco-editor .view-lines')).not.toContainText('YEAR(');
});

test('Modes panel offline: the upgrade view lists statements that would fail under MySQL 8.0 defaults', async ({
  page,
}) => {
  await openWorkbench(page);
  const modesTab = page.getByTestId('panel-tab-modes');
  test.skip((await modesTab.count()) === 0, 'this build has no sqlmode API');
  await page.getByTestId('try-demo').click();
  await expect(page.getByTestId('finding').first()).toBeVisible();
  await page.getByTestId('editor-tab').nth(3).click();
  await modesTab.click();
  await expect(page.getByTestId('modes-offline')).toBeVisible();
  await page.getByTestId('modes-upgrade-run').click();
  await expect(page.getByTestId('modes-upgrade-summary')).toContainText('would fail');
  await expect(page.getByTestId('modes-upgrade-item').first()).toContainText('1364');
  await page.screenshot({ path: 'docs/screenshots/modes-upgrade.png' });
});
