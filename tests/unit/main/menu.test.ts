import { describe, expect, it, vi } from 'vitest';
import { menuTemplate } from '../../../src/main/menu.js';

describe('native menu', () => {
  it('has the standard menus, the macOS app menu only on macOS, and Help › About', () => {
    const roles = (platform: NodeJS.Platform) =>
      menuTemplate(platform, 'Sargable', { about() {} }).map((item) => item.role);
    expect(roles('linux')).toEqual(['fileMenu', 'editMenu', 'viewMenu', 'windowMenu', 'help']);
    expect(roles('win32')).toEqual(['fileMenu', 'editMenu', 'viewMenu', 'windowMenu', 'help']);
    expect(roles('darwin')).toEqual(['appMenu', 'fileMenu', 'editMenu', 'viewMenu', 'windowMenu', 'help']);
  });

  it('About calls the about action', () => {
    const about = vi.fn();
    const help = menuTemplate('linux', 'Sargable', { about }).find((item) => item.role === 'help');
    const submenu = Array.isArray(help?.submenu) ? help.submenu : [];
    expect(submenu.map((item) => item.label)).toEqual(['About Sargable']);
    (submenu[0]?.click as () => void)();
    expect(about).toHaveBeenCalledOnce();
  });
});
