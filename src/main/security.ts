// Electron hardening settings (security checklist), kept free of Electron imports so tests can assert them.
// See docs/security.md, "Electron".

import path from 'node:path';

/** webPreferences of every window. */
export const WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  spellcheck: false,
} as const;

/** The renderer is served from this custom scheme, not file:// (which grants every local file). */
export const APP_SCHEME = 'app';
/** The one host of that scheme. */
export const APP_HOST = 'sargable';
/** Where the main window loads the renderer. */
export const RENDERER_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** For protocol.registerSchemesAsPrivileged: a standard, secure origin so 'self' in the CSP works. */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
} as const;

/** Only our own bundled page may call the API over IPC. */
export function isTrustedRendererUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (
      parsed.protocol === `${APP_SCHEME}:` &&
      parsed.host === APP_HOST &&
      (parsed.pathname === '/index.html' || parsed.pathname === '/') &&
      !parsed.username &&
      !parsed.password
    );
  } catch {
    return false;
  }
}

/**
 * The file behind an `app://sargable/...` request, inside `rendererDir` (the built renderer), or null:
 * other hosts, traversal (`..`, encoded or not), NUL bytes and anything outside the folder are refused.
 */
export function appUrlToFile(url: string, rendererDir: string): string | null {
  let parsed: URL;
  let pathname: string;
  try {
    parsed = new URL(url);
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return null;
  if (pathname.includes('\0') || pathname.includes('\\')) return null;
  const root = path.resolve(rendererDir);
  const relative = pathname === '/' ? 'index.html' : pathname.replace(/^\/+/, '');
  const file = path.resolve(root, relative);
  return file.startsWith(root + path.sep) ? file : null;
}

/** Hosts whose https pages may be opened in the OS browser (documentation linked from the UI). */
export const EXTERNAL_DOC_HOSTS = [
  'dev.mysql.com',
  'mariadb.com',
  'mariadb.org',
  'docs.percona.com',
  'www.percona.com',
  'github.com',
] as const;

/** Whether shell.openExternal may open `url`: https on an allow-listed documentation host only. */
export function isAllowedExternalUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (
      parsed.protocol === 'https:' &&
      !parsed.username &&
      !parsed.password &&
      !parsed.port &&
      (EXTERNAL_DOC_HOSTS as readonly string[]).includes(parsed.hostname)
    );
  } catch {
    return false;
  }
}

/** setPermissionRequestHandler: every permission (camera, notifications, clipboard, …) is denied. */
export function denyPermissionRequest(
  _contents: unknown,
  _permission: string,
  callback: (granted: boolean) => void,
): void {
  callback(false);
}

/** setPermissionCheckHandler: every permission check answers no. */
export function denyPermissionCheck(): boolean {
  return false;
}

/** Native dialog options for files.choose (main shows them; the renderer only names the purpose). */
export function dialogOptions(
  purpose: 'slowlog' | 'schema' | 'sql' | 'workspace-open' | 'workspace-save',
  multiple = false,
) {
  if (purpose === 'workspace-save')
    return {
      kind: 'save' as const,
      title: 'Save workspace as',
      filters: [{ name: 'Sargable workspace', extensions: ['sargable.json', 'json'] }],
    };
  const properties: Array<'openFile' | 'multiSelections'> = ['openFile'];
  if (multiple) properties.push('multiSelections');
  if (purpose === 'schema')
    return {
      kind: 'open' as const,
      title: 'Load a schema file (mysqldump, mariadb-dump, SHOW CREATE TABLE output)',
      properties: ['openFile' as const],
      filters: [
        { name: 'SQL', extensions: ['sql', 'txt'] },
        { name: 'All files', extensions: ['*'] },
      ],
    };
  if (purpose === 'sql')
    return {
      kind: 'open' as const,
      title: 'Analyse a SQL file (a dump, a query log, a script)',
      properties: ['openFile' as const],
      filters: [
        { name: 'SQL', extensions: ['sql', 'txt', 'log'] },
        { name: 'All files', extensions: ['*'] },
      ],
    };
  return purpose === 'slowlog'
    ? {
        kind: 'open' as const,
        title: 'Choose a slow log file',
        properties,
        filters: [
          { name: 'Slow logs', extensions: ['log', 'txt', 'gz'] },
          { name: 'All files', extensions: ['*'] },
        ],
      }
    : {
        kind: 'open' as const,
        title: 'Open workspace',
        properties: ['openFile' as const],
        filters: [{ name: 'Sargable workspace', extensions: ['json'] }],
      };
}
