// e2e (issue 18): a plan shows only its own statement's findings; more to come per item (Top queries, Visual Explain detail, slow_log source, theme).
import { expect, test } from '@playwright/test';
import { openWorkbench } from './helpers/workbench.js';

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
