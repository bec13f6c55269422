// The main toolbar: connect / disconnect, Try it, the target, the palette, EXPLAIN and Analyze all.
import { targetLabel, type Session } from '../session.js';
import type { ThemePreference } from '../platform.js';
import type { ShortcutKeys } from './app-commands.js';

const themeLabels: Record<ThemePreference, string> = {
  system: 'as the system',
  light: 'light',
  dark: 'dark',
};
const themeIcons: Record<ThemePreference, string> = { system: '◐', light: '☀', dark: '☾' };
const nextTheme: Record<ThemePreference, ThemePreference> = {
  system: 'light',
  light: 'dark',
  dark: 'system',
};

export function AppToolbar({
  session,
  keys,
  analyzing,
  onConnect,
  onDisconnect,
  onDemo,
  onPalette,
  onExplain,
  onAnalyzeAll,
  theme,
}: {
  session: Session;
  keys: ShortcutKeys;
  analyzing: boolean;
  onConnect(): void;
  onDisconnect(): void;
  onDemo(): void;
  onPalette(): void;
  onExplain(): void;
  onAnalyzeAll(): void;
  /** The light/dark choice and the button that cycles it (System → Light → Dark). */
  theme?: { preference: ThemePreference; cycle(): void };
}) {
  const live = session.kind === 'live' ? session : null;
  return (
    <header className="toolbar" role="toolbar" aria-label="Main">
      <span className="toolbar__brand">Sargable</span>
      <button type="button" className="button" onClick={onConnect} data-testid="open-connect">
        {live ? 'Change connection…' : 'Connect…'}
      </button>
      {live && (
        <button type="button" className="button" onClick={onDisconnect} data-testid="disconnect">
          Disconnect
        </button>
      )}
      <button
        type="button"
        className="button"
        onClick={onDemo}
        title="Load the seeds' schema and example queries offline: findings, a plan and an export"
        data-testid="try-demo"
      >
        Try it
      </button>
      <span className="toolbar__spacer" />
      <span className="toolbar__target" title="Analyses run against this target">
        {live ? live.label : 'offline'} · {targetLabel(session)}
      </span>
      {theme && (
        <button
          type="button"
          className="button button--icon"
          onClick={theme.cycle}
          title={`Theme: ${themeLabels[theme.preference]} (click for ${themeLabels[nextTheme[theme.preference]]})`}
          aria-label={`Theme: ${themeLabels[theme.preference]}`}
          data-testid="theme-toggle"
          data-theme-preference={theme.preference}
        >
          {themeIcons[theme.preference]}
        </button>
      )}
      <button
        type="button"
        className="button button--icon"
        onClick={onPalette}
        title={`Command palette (${keys.palette})`}
        aria-label="Command palette"
        data-testid="open-palette"
      >
        ⌘
      </button>
      <button
        type="button"
        className="button"
        onClick={onExplain}
        title={live ? 'EXPLAIN the statement at the cursor' : 'Offline: paste EXPLAIN output'}
        data-testid="explain"
      >
        {live ? 'EXPLAIN' : 'Paste EXPLAIN'}
        <kbd className="button__kbd">{keys.explain}</kbd>
      </button>
      <button
        type="button"
        className="button button--primary"
        onClick={onAnalyzeAll}
        disabled={analyzing}
        title={`Analyze every statement in the tab (${keys.analyze} analyzes the statement at the cursor)`}
        aria-keyshortcuts="Shift+Control+Enter"
        data-testid="analyze"
      >
        {analyzing ? 'Analyzing…' : 'Analyze all'}
        <kbd className="button__kbd">{keys.analyzeAll}</kbd>
      </button>
    </header>
  );
}
