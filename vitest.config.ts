import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/support/unit-setup.ts'],
          // The property and corpus tests take 1–4 s alone and several times that on a busy machine.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          fileParallelism: false,
          // Real servers and real clocks: a test that fails once is run once more, and scripts/test.mjs
          // lists every test that passed only on its retry ("flaky"), so a flake is seen, not hidden.
          retry: 1,
        },
      },
      {
        // Attacks (docs/security.md): hostile pages, hostile SQL, crashes; some need the real servers.
        test: {
          name: 'security',
          include: ['tests/security/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          fileParallelism: false,
          // Real servers and real clocks: a test that fails once is run once more, and scripts/test.mjs
          // lists every test that passed only on its retry ("flaky"), so a flake is seen, not hidden.
          retry: 1,
        },
      },
    ],
  },
});
