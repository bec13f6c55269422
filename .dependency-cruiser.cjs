// Import-cycle check for src/ (run by `npm run lint`). Type-only imports count: a cycle through a type
// still ties the two modules' edits together. The layer rules themselves are in eslint.config.js.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import cycles in src/: move the shared piece into a leaf module both sides import (docs/architecture.md).',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6', 'cjs'],
    cache: false,
  },
};
