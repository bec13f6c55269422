// e2e (no server): Top queries digests a slow log file with progress, ranks classes, and sends one to the Advisor.
import { expect, test } from '@playwright/test';
import { openWorkbench } from './helpers/workbench.js';

test('Top queries: digest a slow log, rank the classes, send the slowest example to the editor', async ({
  page,
}) => {
  await openWorkbench(page);
  const tab = page.getByTestId('panel-tab-top');
  test.skip((await tab.count()) === 0, 'this build has no digest API');
  await tab.click();
  await expect(page.getByTestId('top-empty')).toContainText('slow log');

  // A missing file is an error with a code where it happened.
  await page.getByTestId('top-path').fill('tests/fixtures/slowlogs/percona/does-not-exist.log');
  await page.getByTestId('top-start').click();
  await expect(page.getByTestId('top-error')).toBeVisible();

  await page.getByTestId('top-path').fill('tests/fixtures/slowlogs/percona/slow052.txt');
  await page.getByTestId('top-start').click();
  await expect(page.getByTestId('top-progress')).toContainText('done');
  await expect(page.getByTestId('top-progress')).toContainText('events');
  const rows = page.getByTestId('top-class');
  await expect(rows.first()).toBeVisible();
  const count = await rows.count();
  expect(count).toBeGreaterThan(1);
  await expect(page.getByTestId('top-summary')).toContainText(`${count} classes`);

  await rows.first().click();
  const example = (await page.getByTestId('top-example').textContent()) ?? '';
  expect(example.length).toBeGreaterThan(0);
  await page.screenshot({ path: 'docs/screenshots/top-queries.png' });
  await page.getByTestId('top-send').click();
  await expect(page.getByTestId('editor-tab').last()).toHaveText('Top query');
  await expect(page.getByTestId('editor-tab').last()).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.monaco-editor .view-lines')).toContainText(example.trim().slice(0, 20));
});
