import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  appUrlToFile,
  denyPermissionCheck,
  denyPermissionRequest,
  isAllowedExternalUrl,
  isTrustedRendererUrl,
  RENDERER_URL,
  WEB_PREFERENCES,
} from '../../../src/main/security.js';

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
    expect(main).toContain("on('will-redirect', (event) => event.preventDefault())");
    expect(main).toContain("return { action: 'deny' }");
    expect(main).toContain('webPreferences: { ...WEB_PREFERENCES');
    expect(main).toContain('trustedSender(event)');
    // Every web contents (not only the main window's) is locked down.
    expect(main).toContain("app.on('web-contents-created', (_event, contents) => lockDown(contents))");
    // openExternal only behind the allow-list.
    expect(main.match(/shell\.openExternal\(/g)).toHaveLength(1);
    expect(main).toContain('if (isAllowedExternalUrl(url)) void shell.openExternal(url)');
  });

  it('main denies every permission and serves the renderer from app://, never file://', () => {
    const main = readFileSync(new URL('../../../src/main/app.ts', import.meta.url), 'utf8');
    expect(main).toContain('setPermissionRequestHandler(denyPermissionRequest)');
    expect(main).toContain('setPermissionCheckHandler(denyPermissionCheck)');
    expect(main).toContain('protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES])');
    expect(main).toContain('window.loadURL(RENDERER_URL)');
    expect(main).not.toContain('loadFile(');
    const answers: boolean[] = [];
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal'])
      denyPermissionRequest({}, permission, (granted) => answers.push(granted));
    expect(answers).toEqual([false, false, false, false, false]);
    expect(denyPermissionCheck()).toBe(false);
  });

  it('main reads no file the renderer names: files come from its own dialog (grants)', () => {
    const main = readFileSync(new URL('../../../src/main/app.ts', import.meta.url), 'utf8');
    expect(main).toContain('dialog.showOpenDialog(');
    expect(main).toContain('dialog.showSaveDialog(');
    expect(main).toContain('chooseFiles,');
    // The IPC handler passes requests only to the validated dispatch, nothing reads fs in app.ts.
    expect(main).not.toMatch(/from 'node:fs'|readFile|createReadStream/);
  });

  it('app:// serves only the built renderer', () => {
    const root = path.resolve('/opt/Sargable/dist/renderer');
    expect(appUrlToFile(RENDERER_URL, root)).toBe(path.join(root, 'index.html'));
    expect(appUrlToFile('app://sargable/assets/index-abc.js', root)).toBe(
      path.join(root, 'assets', 'index-abc.js'),
    );
    // The URL parser folds dot segments, so these stay inside the renderer folder (or are refused).
    for (const url of [
      'app://sargable/../../etc/passwd',
      'app://sargable/%2e%2e/%2e%2e/etc/passwd',
      'app://sargable/assets/../../../../etc/passwd',
    ]) {
      const file = appUrlToFile(url, root);
      expect(file === null || file.startsWith(root + path.sep), url).toBe(true);
    }
    for (const url of [
      'app://sargable/..%2f..%2fetc%2fpasswd',
      'app://sargable/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      'app://sargable/assets/%00.js',
      'app://sargable/..%5c..%5cwindows',
      'app://other/index.html',
      'file:///etc/passwd',
      'app://sargable/%E0%A4%A',
    ])
      expect(appUrlToFile(url, root), url).toBeNull();
  });

  it('opens only https documentation hosts in the OS browser', () => {
    for (const url of [
      'https://dev.mysql.com/doc/refman/8.0/en/explain.html',
      'https://mariadb.com/kb/en/explain/',
      'https://docs.percona.com/percona-toolkit/pt-query-digest.html',
    ])
      expect(isAllowedExternalUrl(url), url).toBe(true);
    for (const url of [
      'http://dev.mysql.com/doc/',
      'https://dev.mysql.com.evil.example/',
      'https://evil.example/?u=https://dev.mysql.com',
      'https://user:pass@dev.mysql.com/',
      'https://dev.mysql.com:8443/',
      'file:///etc/passwd',
      'smb://host/share',
      'javascript:alert(1)',
      'ms-msdt:/id PCWDiagnostic',
      'not a url',
    ])
      expect(isAllowedExternalUrl(url), url).toBe(false);
  });

  it('the packaged binary flips the fuses: no RunAsNode, NODE_OPTIONS, inspect; cookie encryption; asar integrity', () => {
    const config = parse(readFileSync(new URL('../../../electron-builder.yml', import.meta.url), 'utf8')) as {
      asar: boolean;
      electronFuses: Record<string, boolean>;
    };
    expect(config.asar).toBe(true);
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    // Every key is one electron-builder knows (a misspelt fuse would be silently ignored otherwise).
    const require = createRequire(import.meta.url);
    const scheme = JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8')) as {
      definitions: Record<string, { properties?: Record<string, unknown> }>;
    };
    const known = Object.keys(scheme.definitions.FuseOptionsV1?.properties ?? {});
    expect(known.length).toBeGreaterThan(5);
    for (const key of Object.keys(config.electronFuses)) expect(known, key).toContain(key);
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
    expect(isTrustedRendererUrl(RENDERER_URL)).toBe(true);
    expect(isTrustedRendererUrl('app://sargable/index.html#/explain')).toBe(true);
    for (const url of [
      'https://example.com/renderer/index.html',
      'file:///tmp/evil.html',
      // file:// is no longer trusted at all, not even a page that looks like ours.
      'file:///tmp/x/renderer/index.html',
      'file:///opt/Sargable/resources/app.asar/dist/renderer/index.html',
      'app://evil/index.html',
      'app://sargable/other.html',
      'app://sargable.evil/index.html',
    ])
      expect(isTrustedRendererUrl(url), url).toBe(false);
  });

  it('the preload exposes only invoke, allow-listed', () => {
    const preload = readFileSync(new URL('../../../src/preload/index.ts', import.meta.url), 'utf8');
    expect(preload.match(/exposeInMainWorld/g)).toHaveLength(1);
    expect(preload).toContain('allowed.has(method)');
  });
});
