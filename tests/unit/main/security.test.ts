import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isTrustedRendererUrl, WEB_PREFERENCES } from '../../../src/main/security.js';

describe('Electron hardening', () => {
  it('uses the security checklist settings', () => {
    expect(WEB_PREFERENCES).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it('main blocks navigation and new windows and wires only the shared settings', () => {
    const main = readFileSync(new URL('../../../src/main/app.ts', import.meta.url), 'utf8');
    expect(main).toContain("on('will-navigate', (event) => event.preventDefault())");
    expect(main).toContain("return { action: 'deny' }");
    expect(main).toContain('webPreferences: { ...WEB_PREFERENCES');
    expect(main).toContain('trustedSender(event)');
  });

  it('main keeps one instance, builds the native menu and remembers the window state', () => {
    const main = readFileSync(new URL('../../../src/main/app.ts', import.meta.url), 'utf8');
    // A second launch quits and focuses the first window instead.
    expect(main).toMatch(/if \(!app\.requestSingleInstanceLock\(\)\) \{\s*app\.quit\(\);\s*return;/);
    expect(main).toContain("app.on('second-instance'");
    expect(main).toContain('Menu.setApplicationMenu(Menu.buildFromTemplate(template))');
    expect(main).toContain('menuTemplate(process.platform, APP_NAME');
    expect(main).toContain('loadWindowState(');
    expect(main).toContain('trackWindowState(window, stateFile)');
  });

  it('trusts only the bundled renderer page', () => {
    expect(isTrustedRendererUrl('file:///opt/Sargable/resources/app.asar/dist/renderer/index.html')).toBe(
      true,
    );
    expect(isTrustedRendererUrl('https://example.com/renderer/index.html')).toBe(false);
    expect(isTrustedRendererUrl('file:///tmp/evil.html')).toBe(false);
  });

  it('the preload exposes only invoke, allow-listed', () => {
    const preload = readFileSync(new URL('../../../src/preload/index.ts', import.meta.url), 'utf8');
    expect(preload.match(/exposeInMainWorld/g)).toHaveLength(1);
    expect(preload).toContain('allowed.has(method)');
  });
});
