// e2e against MySQL 8.0.33: disable a rule in the workspace and re-enable it; the rewrite as a read-only diff with Apply and Copy.
import { expect, test } from '@playwright/test';
import { useScratchDatabase } from './helpers/database.js';
import { mysqlTestUrl } from './helpers/env.js';
import {
  analyzeWithShortcut,
  connectWithForm,
  formFromUrl,
  openWorkbench,
  setEditorText,
} from './helpers/workbench.js';

const query = 'SELECT id, qty FROM products WHERE YEAR(create_time) = 2019;';

test.describe('advisor UI against MySQL 8.0.33', () => {
  const database = useScratchDatabase(
    'sargable_e2e',
    'CREATE TABLE products (id int NOT NULL, create_time datetime NOT NULL, qty int NOT NULL, PRIMARY KEY (id))',
  );

  test('disable a rule in this workspace, re-enable it; diff of the rewrite with Copy and Apply', async ({
    page,
  }) => {
    await openWorkbench(page);
    await connectWithForm(page, formFromUrl(mysqlTestUrl(), database));
    await setEditorText(page, query);
    await analyzeWithShortcut(page);
    const finding = page.getByTestId('finding');
    await expect(finding).toHaveCount(1);
    await expect(finding.getByTestId('finding-rule')).toHaveText('FUN001');

    // Disable: the analysis runs again without FUN001 and the panel lists it for re-enabling.
    await finding.getByTestId('disable-rule').click();
    await expect(page.getByTestId('findings-none')).toBeVisible();
    await expect(page.getByTestId('disabled-rule')).toHaveAttribute('data-rule', 'FUN001');
    await page.getByTestId('enable-rule').click();
    await expect(page.getByTestId('finding')).toHaveCount(1);
    await expect(page.getByTestId('disabled-rules')).toHaveCount(0);

    // The rewrite as a diff: original left, rewritten right, both read-only.
    const rewrite = page
      .getByTestId('suggestion')
      .filter({ has: page.getByTestId('show-diff') })
      .first();
    await expect(rewrite).toHaveAttribute('data-kind', 'rewrite');
    await rewrite.getByTestId('show-diff').click();
    const diff = rewrite.getByTestId('rewrite-diff');
    await expect(diff.locator('.monaco-diff-editor')).toBeVisible();
    await expect(diff.locator('.editor.original .view-lines')).toContainText('YEAR(create_time)');
    await expect(diff.locator('.editor.modified .view-lines')).toContainText("`create_time` >= '2019-01-01'");
    await expect(diff.locator('.char-insert, .line-insert').first()).toBeAttached();
    await rewrite.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'docs/screenshots/rewrite-diff.png' });

    await rewrite.getByTestId('diff-copy').click();
    await expect(rewrite.getByTestId('diff-copy')).toHaveText(/^Copied|^Copy failed/);
    await rewrite.getByTestId('diff-apply').click();
    await expect(page.locator('.monaco-editor .view-lines').first()).toContainText(
      "`create_time` >= '2019-01-01'",
    );
  });
});
