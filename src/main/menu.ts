// The native application menu as a template (no Electron runtime imports, so tests can assert it).

import type { MenuItemConstructorOptions } from 'electron';

/** What the menu's own items do (the rest are Electron roles). */
export interface MenuActions {
  /** Help › About: name, version and what the app is. */
  about(): void;
}

/**
 * The menu: the platform's standard File / Edit / View / Window menus (roles, so shortcuts, undo/redo,
 * copy/paste, zoom, full screen and reload follow each OS's conventions), the macOS app menu, and Help
 * with About.
 */
export function menuTemplate(
  platform: NodeJS.Platform,
  appName: string,
  actions: MenuActions,
): MenuItemConstructorOptions[] {
  return [
    ...(platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [{ label: `About ${appName}`, click: () => actions.about() }],
    },
  ];
}
