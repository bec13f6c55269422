// Electron main process: one hardened window, native menu, IPC wired to the same handlers as web mode.

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  net,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
  type IpcMainEvent,
  type IpcMainInvokeEvent,
} from 'electron';
import { createHandlers } from './handlers/index.js';
import { dispatch } from './dispatch.js';
import { createEventHandlers } from './events.js';
import { serveIpcEvents } from './ipc-events.js';
import { createServices } from './services/index.js';
import { APP_NAME, APP_VERSION } from './version.js';
import { INVOKE_CHANNEL } from '../shared/ipc.js';
import {
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  appUrlToFile,
  denyPermissionCheck,
  denyPermissionRequest,
  dialogOptions,
  isAllowedExternalUrl,
  isTrustedRendererUrl,
  RENDERER_URL,
  WEB_PREFERENCES,
} from './security.js';
import type { ChooseFilesRequest } from './services/index.js';
import { menuTemplate } from './menu.js';
import { loadWindowState, MIN_WINDOW_SIZE, trackWindowState } from './window-state.js';

const rendererDir = path.join(__dirname, '..', 'renderer');

// The renderer is served from app://sargable/ (a standard, secure scheme), never from file://.
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);

/** Serves app://sargable/<file> from the built renderer only (appUrlToFile refuses anything else). */
function serveRenderer(): void {
  protocol.handle(APP_SCHEME, (request) => {
    const file = appUrlToFile(request.url, rendererDir);
    if (!file) return new Response('Not found', { status: 404 });
    return net.fetch(pathToFileURL(file).toString());
  });
}

/** Every web contents: no navigation, no new windows (allow-listed docs open in the OS browser), no webviews. */
function lockDown(contents: Electron.WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

/** The main window at its remembered size and place (fitted to today's displays). */
async function createWindow(stateFile: string): Promise<{ window: BrowserWindow; flush(): Promise<void> }> {
  const state = await loadWindowState(
    stateFile,
    screen.getAllDisplays().map((display) => display.workArea),
  );
  const window = new BrowserWindow({
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : { center: true }),
    width: state.width,
    height: state.height,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    title: APP_NAME,
    show: false,
    webPreferences: { ...WEB_PREFERENCES, preload: path.join(__dirname, '..', 'preload', 'index.cjs') },
  });
  if (state.maximized) window.maximize();
  if (state.fullScreen) window.setFullScreen(true);
  const tracker = trackWindowState(window, stateFile);
  window.once('ready-to-show', () => window.show());
  // Navigation and new windows are blocked (lockDown, on every web contents); allow-listed
  // documentation links open in the OS browser.
  void window.loadURL(RENDERER_URL);
  return { window, flush: () => tracker.flush() };
}

/** Only our own page may call the API. */
function trustedSender(event: IpcMainInvokeEvent | IpcMainEvent): boolean {
  return isTrustedRendererUrl(event.senderFrame?.url ?? '');
}

function buildMenu(): void {
  const template = menuTemplate(process.platform, APP_NAME, {
    about: () =>
      void dialog.showMessageBox({
        type: 'info',
        title: `About ${APP_NAME}`,
        message: `${APP_NAME} ${APP_VERSION}`,
        detail: 'Query and index advisor for MySQL-family servers.',
      }),
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function main(): void {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  // Passwords go only through the OS keychain (safeStorage); profiles and workspaces live in userData.
  let mainWindow: BrowserWindow | undefined;
  /** files.choose: main's own dialog; the grant it yields is the only way a handler gets a file. */
  const chooseFiles = async (request: ChooseFilesRequest): Promise<string[]> => {
    const options = dialogOptions(request.purpose, request.multiple);
    if (options.kind === 'save') {
      const { kind: _kind, ...saveOptions } = options;
      const result = mainWindow
        ? await dialog.showSaveDialog(mainWindow, saveOptions)
        : await dialog.showSaveDialog(saveOptions);
      return result.canceled || !result.filePath ? [] : [result.filePath];
    }
    const { kind: _kind, ...openOptions } = options;
    const result = mainWindow
      ? await dialog.showOpenDialog(mainWindow, openOptions)
      : await dialog.showOpenDialog(openOptions);
    return result.canceled ? [] : result.filePaths;
  };
  const services = createServices('electron', {
    safeStorage,
    userDataDir: app.getPath('userData'),
    chooseFiles,
  });
  const handlers = createHandlers(services);
  // Size, position and maximized state of the main window, remembered across runs.
  const windowStateFile = path.join(app.getPath('userData'), 'window-state.json');
  let windowState: { flush(): Promise<void> } | undefined;
  const openWindow = async () => {
    const created = await createWindow(windowStateFile);
    mainWindow = created.window;
    windowState = created;
  };

  app.on('second-instance', () => {
    if (mainWindow?.isMinimized()) mainWindow.restore();
    mainWindow?.focus();
  });
  app.on('web-contents-created', (_event, contents) => lockDown(contents));
  ipcMain.handle(INVOKE_CHANNEL, async (event, method: unknown, request: unknown) => {
    if (!trustedSender(event))
      return { ok: false, error: { code: 'AUTH_FAILED', message: 'Untrusted sender.' } };
    return dispatch(handlers, String(method), request);
  });
  serveIpcEvents(ipcMain, createEventHandlers(services), trustedSender);
  void app.whenReady().then(async () => {
    // No page gets any permission (camera, microphone, notifications, geolocation, …).
    session.defaultSession.setPermissionRequestHandler(denyPermissionRequest);
    session.defaultSession.setPermissionCheckHandler(denyPermissionCheck);
    serveRenderer();
    buildMenu();
    await openWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) void openWindow();
    });
  });
  app.on('window-all-closed', () => {
    // A running slow-log window restores the server's settings before the app quits.
    void Promise.allSettled([services.capture?.cancelAll(), windowState?.flush()])
      .then(() => services.connections.closeAll())
      .finally(() => {
        if (process.platform !== 'darwin') app.quit();
      });
  });
}

main();
