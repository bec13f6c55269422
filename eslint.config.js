// Lint config: typescript-eslint recommended plus the layering rules (imports flow core <- shared <- main/preload/renderer/cli).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = [
  'fs',
  'path',
  'os',
  'net',
  'http',
  'https',
  'child_process',
  'worker_threads',
  'crypto',
  'stream',
  'url',
  'readline',
  'zlib',
  'util',
  'events',
];
const nodeImports = nodeBuiltins.flatMap((name) => [name, `node:${name}`, `${name}/*`, `node:${name}/*`]);

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'dist',
      'release',
      'test-results',
      'playwright-report',
      '.scratch',
      'docs/**/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...nodeImports, 'electron', 'mysql2', 'mysql2/promise'].map((name) => ({
            name,
            message: 'src/core is pure: no I/O, no Electron, no network (see STYLE.md).',
          })),
          patterns: [
            {
              group: ['**/main/**', '**/renderer/**', '**/cli/**', '**/preload/**', '**/shared/**'],
              message: 'core imports nothing outside core.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...nodeImports, 'electron', 'mysql2', 'mysql2/promise'].map((name) => ({
            name,
            message: 'src/shared is pure.',
          })),
          patterns: [
            {
              group: ['**/main/**', '**/renderer/**', '**/cli/**', '**/preload/**'],
              message: 'shared imports only core.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...nodeImports, 'electron', 'mysql2', 'mysql2/promise'].map((name) => ({
            name,
            message: 'The renderer talks to services only through the API client.',
          })),
          patterns: [
            {
              group: ['**/main/**', '**/cli/**', '**/preload/**'],
              message: 'renderer imports core and shared only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The CLI runs without Electron.' }],
          patterns: [{ group: ['**/renderer/**', '**/preload/**'] }],
        },
      ],
    },
  },
);
