// Logs a Playwright page into web mode the way a user does: a one-time login code, exchanged for the
// HttpOnly session cookie and a redirect to the clean URL (the code is minted with the bridge's token,
// which only this test process knows; the browser never sees the token).
import { expect, type Page } from '@playwright/test';
import { e2ePort, e2eToken } from './env.js';

/** A fresh one-time login code from the running bridge. */
export async function loginCode(baseUrl: string): Promise<string> {
  const response = await fetch(new URL('/login-code', baseUrl), {
    method: 'POST',
    headers: { 'x-sargable-token': e2eToken },
  });
  const reply = (await response.json()) as { ok: boolean; value?: { code: string } };
  if (!reply.ok || !reply.value) throw new Error(`login code refused: HTTP ${response.status}`);
  return reply.value.code;
}

/** Open `/` logged in; afterwards the address bar carries neither the code nor the token. */
export async function login(page: Page): Promise<void> {
  const base = process.env.SARGABLE_E2E_BASE_URL ?? `http://127.0.0.1:${e2ePort}`;
  await page.goto(`/?code=${await loginCode(base)}`);
  const url = new URL(page.url());
  expect(url.search).toBe('');
  expect(url.pathname).toBe('/');
  // The session cookie is HttpOnly: the page's scripts cannot read it.
  expect(await page.evaluate(() => document.cookie)).toBe('');
}
