// e2e against MySQL 8.0.33: an EXPLAIN refused because the statement calls a stored function. The
// Plan panel says why, names the function, and explains only after the user confirmed; the function
// then runs (the optimizer evaluates it while planning), which the canary shows: it takes a
// user-level lock that another session sees with IS_USED_LOCK — never before the confirmation.
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import mysql, { type RowDataPacket } from 'mysql2/promise';
import { useScratchDatabase } from './helpers/database.js';
import { mysqlTestUrl } from './helpers/env.js';
import { connectWithForm, formFromUrl, openWorkbench, setEditorText } from './helpers/workbench.js';

const lock = `sargable_e2e_routine_${randomBytes(4).toString('hex')}`;

test.describe('EXPLAIN of a statement that calls a stored routine', () => {
  const database = useScratchDatabase(
    'sargable_routine',
    `CREATE TABLE t (id INT PRIMARY KEY, a INT);
INSERT INTO t VALUES (1, 1), (2, 2), (3, 3);
CREATE FUNCTION canary_fn(x INT) RETURNS INT DETERMINISTIC READS SQL DATA
BEGIN DO GET_LOCK('${lock}', 0); RETURN x; END`,
  );

  async function lockHeld(): Promise<boolean> {
    const observer = await mysql.createConnection(mysqlTestUrl().href);
    try {
      const [rows] = await observer.query<RowDataPacket[]>('SELECT IS_USED_LOCK(?) AS holder', [lock]);
      return rows[0]!.holder !== null;
    } finally {
      await observer.end();
    }
  }

  test('refused with the reason; Explain anyway names the function and runs only after the confirmation', async ({
    page,
  }) => {
    await openWorkbench(page);
    await connectWithForm(page, formFromUrl(mysqlTestUrl(), database));
    await setEditorText(page, 'SELECT * FROM t WHERE id = canary_fn(2) AND a > 0;');
    await page.keyboard.press('ControlOrMeta+E');

    const error = page.getByTestId('plan-error');
    await expect(error).toContainText('CONSENT_REQUIRED');
    await expect(error).toContainText(/canary_fn/i);
    await expect(error).toContainText('may be a stored or loadable function');
    expect(await lockHeld()).toBe(false);

    await page.getByTestId('plan-allow-routines').click();
    const consent = page.getByTestId('plan-routine-consent');
    await expect(consent.getByTestId('plan-routine-names')).toHaveText('canary_fn');
    await expect(consent).toContainText('with your privileges');
    // Cancel keeps the refusal; nothing ran.
    await consent.getByRole('button', { name: 'Cancel' }).click();
    await expect(consent).toHaveCount(0);
    expect(await lockHeld()).toBe(false);

    await page.getByTestId('plan-allow-routines').click();
    await page.getByTestId('plan-allow-routines-confirm').click();
    await expect(page.getByTestId('plan-tree')).toBeVisible();
    await expect(page.getByTestId('plan-error')).toHaveCount(0);
    expect(await lockHeld()).toBe(true);
  });
});
