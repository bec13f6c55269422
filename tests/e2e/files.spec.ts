// e2e (web mode in Chromium): files reach the API only when the user chose them. "Choose file…" opens
// the browser's picker and uploads the file; a typed path outside the folders given with --allow-dir
// is refused with a message, and the canary file's content never shows up on the page.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { openWorkbench } from './helpers/workbench.js';

const fixture = path.resolve('tests/fixtures/slowlogs/generated/mysql-workload.log');

test('Top queries: a picked file is uploaded and digested; a typed secret path is refused', async ({
  page,
}) => {
  await openWorkbench(page);
  await page.getByTestId('panel-tab-top').click();
  await page.getByTestId('top-source-file').check();

  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByTestId('top-choose').click(),
  ]);
  await chooser.setFiles(fixture);
  await expect(page.getByTestId('top-progress')).toContainText('done', { timeout: 60_000 });
  await expect(page.getByTestId('top-path')).toHaveValue('mysql-workload.log');

  // A secret outside the allowed folders (the e2e web mode allows tests/fixtures and the temp dir, so
  // the canary lives in a folder under the home directory that neither contains).
  const home = mkdtempSync(path.join(os.homedir(), '.sargable-e2e-secret-'));
  const canary = `CANARY${Date.now()}PRIVATE`;
  const secret = path.join(home, 'id_ed25519');
  writeFileSync(secret, `${canary}\n`, { mode: 0o600 });
  try {
    await page.getByTestId('top-path').fill(secret);
    await page.getByTestId('top-path').press('Enter');
    await expect(page.getByTestId('top-error')).toContainText('opens only files you choose');
    await expect(page.locator('body')).not.toContainText(canary);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
