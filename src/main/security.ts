// Electron hardening settings (security checklist), kept free of Electron imports so tests can assert them.

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

/** Only our own bundled page may call the API over IPC. */
export function isTrustedRendererUrl(url: string): boolean {
  if (!url.startsWith('file://')) return false;
  try {
    return decodeURIComponent(new URL(url).pathname).endsWith('/renderer/index.html');
  } catch {
    return false;
  }
}
