// Small browser helpers: the platform's shortcut names, the OS color scheme, clipboard with a fallback.
import { useEffect, useState } from 'react';

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
