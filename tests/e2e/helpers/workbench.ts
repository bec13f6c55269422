// Page-action helpers for the Sargable workbench (open, type SQL, analyze, connect, work offline, read markers).
import { expect, type Locator, type Page } from '@playwright/test';
import { login } from './login.js';

/** Open web mode through a one-time login code and wait for the editor. */
export async function openWorkbench(page: Page): Promise<void> {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await login(page);
  await expect(page.locator('.monaco-editor .view-lines')).toBeVisible();
  expect(problems).toEqual([]);
}

/** Replace the whole editor text (select all, then insert as one edit, like a paste). */
export async function setEditorText(page: Page, text: string): Promise<void> {
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

/**
 * Analyze with the keyboard and wait for the analysis to finish: Shift+Ctrl/Cmd+Enter analyzes every
 * statement (the default here); `{ scope: 'statement' }` presses Ctrl/Cmd+Enter (the statement at the cursor).
 */
export async function analyzeWithShortcut(
  page: Page,
  options: { scope?: 'all' | 'statement' } = {},
): Promise<void> {
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press(
    options.scope === 'statement' ? 'ControlOrMeta+Enter' : 'ControlOrMeta+Shift+Enter',
  );
  await expect(page.getByTestId('analyze')).toHaveText(/^Analyze/);
  await expect(page.getByTestId('findings-empty')).toHaveCount(0);
}

/** Connection form fields (the dialog's labels). */
export interface FormConnection {
  host: string;
  port: number;
  user: string;
  password: string;
  database?: string;
  /** Tick "Allow what-if indexes (sandbox)". */
  allowWhatIf?: boolean;
}

/** Form fields from a test server URL (mysql://user:pass@host:port/). */
export function formFromUrl(url: URL, database?: string): FormConnection {
  return {
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    ...(database ? { database } : {}),
  };
}

/** Open the dialog, fill the form and connect; waits until the dialog closes. */
export async function connectWithForm(page: Page, connection: FormConnection): Promise<void> {
  await page.getByTestId('open-connect').click();
  const dialog = page.getByTestId('connection-dialog');
  await dialog.getByLabel('Host').fill(connection.host);
  await dialog.getByLabel('Port').fill(String(connection.port));
  await dialog.getByLabel('User').fill(connection.user);
  await dialog.getByLabel('Password').fill(connection.password);
  await dialog.getByLabel('Database').fill(connection.database ?? '');
  if (connection.allowWhatIf) await dialog.getByTestId('allow-what-if').check();
  await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(dialog).toHaveCount(0);
}

/** Open the dialog's offline tab, set flavor, version and schema, and confirm. */
export async function workOffline(
  page: Page,
  options: { flavor: 'MySQL' | 'MariaDB'; version: string; schemaSql: string },
): Promise<void> {
  await page.getByTestId('open-connect').click();
  const dialog = page.getByTestId('connection-dialog');
  await dialog.getByRole('tab', { name: 'Work offline' }).click();
  await dialog.getByLabel('Flavor').selectOption({ label: options.flavor });
  await dialog.getByLabel('Version').fill(options.version);
  await dialog.getByLabel('Schema').fill(options.schemaSql);
  await dialog.getByRole('button', { name: 'Work offline' }).click();
  await expect(dialog).toHaveCount(0);
}

/** The squiggles Monaco draws for markers of a severity. */
export function squiggles(page: Page, severity: 'error' | 'warning' | 'info'): Locator {
  return page.locator(`.monaco-editor .view-overlays .squiggly-${severity}`);
}

/** The editor line (1-based) a squiggle is drawn on, from its vertical position next to the line numbers. */
export async function squiggleLine(page: Page, squiggle: Locator): Promise<number> {
  const box = await squiggle.boundingBox();
  if (!box) throw new Error('The marker is not visible.');
  const numbers = page.locator('.monaco-editor .margin-view-overlays .line-numbers');
  for (const number of await numbers.all()) {
    const lineBox = await number.boundingBox();
    if (lineBox && Math.abs(lineBox.y + lineBox.height / 2 - (box.y + box.height / 2)) < lineBox.height / 2) {
      return Number((await number.textContent())?.trim());
    }
  }
  throw new Error('No line number beside the marker.');
}
