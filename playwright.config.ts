// Playwright e2e config: Debian's Chromium against web mode (`node scripts/web.mjs`), one worker.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { e2ePort, e2eToken } from './tests/e2e/helpers/env.js';

/**
 * SARGABLE_E2E_BASE_URL points the tests at an already running web mode (started with the same
 * SARGABLE_WEB_TOKEN) instead of starting one.
 */
const externalBaseUrl = process.env.SARGABLE_E2E_BASE_URL;

/**
 * Profiles and workspaces of the web mode under test live in a fresh config directory per run
 * (XDG_CONFIG_HOME), never in the user's ~/.config: a run starts with no saved connections and an
 * empty offline workspace, whatever earlier runs left. Set once here; the workers inherit it.
 */
process.env.SARGABLE_E2E_CONFIG_HOME ??= mkdtempSync(path.join(os.tmpdir(), 'sargable-e2e-config-'));
const baseURL = externalBaseUrl ?? `http://127.0.0.1:${e2ePort}`;

export default defineConfig({
  testDir: 'tests/e2e',
  // Empties the test servers' statement-digest tables, which the integration suite fills (global-setup.ts).
  globalSetup: './tests/e2e/global-setup.ts',
  outputDir: 'test-results/e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  // One retry in CI; scripts/test.mjs lists every test that passed only on its retry ("flaky").
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? 'list' : [['list']],
  use: {
    baseURL,
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's Chromium; never `npx playwright install` (see DEVELOPERS.md).
      executablePath: process.env.SARGABLE_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: externalBaseUrl
    ? undefined
    : {
        // The specs type paths of fixtures and of their own temp files, as a user who started web mode
        // with --allow-dir for those folders; other files are refused (tests/security/files.test.ts).
        command: `node scripts/web.mjs --port ${e2ePort} --allow-dir tests/fixtures --allow-dir ${JSON.stringify(os.tmpdir())}`,
        url: `${baseURL}/`,
        reuseExistingServer: false,
        timeout: 180_000,
        stdout: 'pipe',
        stderr: 'pipe',
        // SARGABLE_REBUILD: always test the current sources, never a stale dist/.
        env: {
          SARGABLE_WEB_TOKEN: e2eToken,
          SARGABLE_REBUILD: '1',
          CI: '1',
          XDG_CONFIG_HOME: process.env.SARGABLE_E2E_CONFIG_HOME,
        },
      },
});
