// Small browser helpers: the platform's shortcut names, the OS color scheme, clipboard with a fallback.
import { useCallback, useEffect, useState } from 'react';

/** True on macOS (Cmd instead of Ctrl). */
export function isMac(): boolean {
  return /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

/** `Ctrl+Enter` or `⌘Enter`. */
export function analyzeShortcut(): string {
  return isMac() ? '⌘Enter' : 'Ctrl+Enter';
}

/** A shortcut for display: `Ctrl+E` / `⌘E`, `Shift+Ctrl+Enter` / `⇧⌘Enter`. */
export function shortcutLabel(keys: { key: string; mod?: boolean; shift?: boolean }): string {
  const mac = isMac();
  const parts: string[] = [];
  if (keys.shift) parts.push(mac ? '⇧' : 'Shift+');
  if (keys.mod) parts.push(mac ? '⌘' : 'Ctrl+');
  return parts.join('') + keys.key;
}

const darkQuery = '(prefers-color-scheme: dark)';

/** Follows the OS light/dark setting live. */
export function usePrefersDark(): boolean {
  const [dark, setDark] = useState(() => window.matchMedia(darkQuery).matches);
  useEffect(() => {
    const media = window.matchMedia(darkQuery);
    const onChange = (event: MediaQueryListEvent) => setDark(event.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
  return dark;
}

/** The theme the user chose: follow the OS, or always light / dark. */
export type ThemePreference = 'system' | 'light' | 'dark';

const themeKey = 'sargable.theme';
const themeOrder: ThemePreference[] = ['system', 'light', 'dark'];

function storedTheme(): ThemePreference {
  try {
    const value = window.localStorage.getItem(themeKey);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

/**
 * The light/dark theme: the OS setting unless the user chose one (kept in localStorage). A choice
 * sets `data-theme` on <html>, which the stylesheet's palettes follow; `dark` is for Monaco.
 */
export function useTheme(): { preference: ThemePreference; dark: boolean; cycle(): void } {
  const prefersDark = usePrefersDark();
  const [preference, setPreference] = useState<ThemePreference>(storedTheme);
  useEffect(() => {
    const root = document.documentElement;
    if (preference === 'system') delete root.dataset.theme;
    else root.dataset.theme = preference;
    try {
      if (preference === 'system') window.localStorage.removeItem(themeKey);
      else window.localStorage.setItem(themeKey, preference);
    } catch {
      // Storage unavailable: the choice lasts for this window only.
    }
  }, [preference]);
  const cycle = useCallback(
    () => setPreference((current) => themeOrder[(themeOrder.indexOf(current) + 1) % themeOrder.length]!),
    [],
  );
  return { preference, dark: preference === 'dark' || (preference === 'system' && prefersDark), cycle };
}

/** Copy text; falls back to a hidden textarea where the async clipboard is unavailable. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Permission denied or not a secure context: use the fallback below.
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  if (!copied) throw new Error('The clipboard is not available.');
}
