// Unit-test setup (vitest.config.ts). In the DOM tests (happy-dom), Testing Library's waitFor and
// findBy* give up after 1 s by default: on a loaded or slow machine a re-render after a fake-bridge
// reply can take longer, and the test failed on the machine, not the code. A check that never holds
// still fails, only later.
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 10_000 });
}
export {};
