// Electron main process: one hardened window, native menu, IPC wired to the same handlers as web mode.

import path from 'node:path';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  safeStorage,
  shell,
  type IpcMainInvokeEvent,
} from 'electron';
import { createHandlers } from './handlers.js';
import { dispatch } from './dispatch.js';
import { createServices } from './services/index.js';
import { APP_NAME, APP_VERSION } from './version.js';
import { INVOKE_CHANNEL } from '../shared/ipc.js';
import { isTrustedRendererUrl, WEB_PREFERENCES } from './security.js';

const rendererIndex = path.join(__dirname, '..', 'renderer', 'index.html');

function createWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 800,
    minHeight: 500,
    title: APP_NAME,
    show: false,
    webPreferences: { ...WEB_PREFERENCES, preload: path.join(__dirname, '..', 'preload', 'index.cjs') },
  });
  window.once('ready-to-show', () => window.show());
  // Navigation and new windows are blocked; external links open in the browser.
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  void window.loadFile(rendererIndex);
  return window;
}

/** Only our own page may call the API. */
function trustedSender(event: IpcMainInvokeEvent): boolean {
  return isTrustedRendererUrl(event.senderFrame?.url ?? '');
}

function buildMenu(): void {
  const template: Electron.MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        {
          label: `About ${APP_NAME}`,
          click: () =>
            void dialog.showMessageBox({
              type: 'info',
              title: `About ${APP_NAME}`,
              message: `${APP_NAME} ${APP_VERSION}`,
              detail: 'Query and index advisor for MySQL-family servers.',
            }),
        },
      ],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function main(): void {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  // Passwords go only through the OS keychain (safeStorage); profiles and workspaces live in userData.
  const services = createServices('electron', { safeStorage, userDataDir: app.getPath('userData') });
  const handlers = createHandlers(services);
  let mainWindow: BrowserWindow | undefined;

  app.on('second-instance', () => {
    if (mainWindow?.isMinimized()) mainWindow.restore();
    mainWindow?.focus();
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  ipcMain.handle(INVOKE_CHANNEL, async (event, method: unknown, request: unknown) => {
    if (!trustedSender(event))
      return { ok: false, error: { code: 'AUTH_FAILED', message: 'Untrusted sender.' } };
    return dispatch(handlers, String(method), request);
  });
  void app.whenReady().then(() => {
    buildMenu();
    mainWindow = createWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
    });
  });
  app.on('window-all-closed', () => {
    // A running slow-log window restores the server's settings before the app quits.
    void Promise.allSettled([services.capture?.cancelAll()])
      .then(() => services.connections.closeAll())
      .finally(() => {
        if (process.platform !== 'darwin') app.quit();
      });
  });
}

main();
