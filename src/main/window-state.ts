// Remembers the main window's size, position and maximized state in userData (plain Node, no Electron imports).
/*
 * Design note: the state is read once at start and written when the window moves, resizes (debounced)
 * or closes, with an atomic write so a crash never leaves half a file. What was saved may not fit any
 * more: a monitor was unplugged, the resolution dropped, or the file was edited by hand. So a loaded
 * state is always fitted to the current displays' work areas before use: the size is clamped to the
 * display the window lands on (never below the window's minimum), a window mostly off-screen is moved
 * fully onto that display, and a window that touches no display loses its position (Electron then
 * centres it). A missing, corrupt or out-of-range file gives the defaults.
 */
import fs from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from './services/secrets.js';

/** A rectangle in screen coordinates (Electron's `Rectangle`, e.g. a display's `workArea`). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What is remembered. `x`/`y` are absent when the window should be centred. */
export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
  fullScreen: boolean;
}

/** The first-run size (and what a corrupt file falls back to). */
export const DEFAULT_WINDOW_STATE: WindowState = {
  width: 1280,
  height: 820,
  maximized: false,
  fullScreen: false,
};

/** The window's minimum size (BrowserWindow `minWidth` / `minHeight`). */
export const MIN_WINDOW_SIZE = { width: 800, height: 500 } as const;

/** At least this much of the window (title bar included) must be on a display to keep its position. */
const MIN_VISIBLE = { width: 120, height: 40 } as const;

const coordinate = z.number().int().min(-100_000).max(100_000);
const size = z.number().int().min(1).max(100_000);
const stateSchema = z.object({
  x: coordinate.optional(),
  y: coordinate.optional(),
  width: size,
  height: size,
  maximized: z.boolean().default(false),
  fullScreen: z.boolean().default(false),
});

/** The stored JSON as a WindowState, or null when it is not one. */
export function parseWindowState(value: unknown): WindowState | null {
  const parsed = stateSchema.safeParse(value);
  if (!parsed.success) return null;
  const { x, y, ...rest } = parsed.data;
  // A position needs both coordinates.
  return x !== undefined && y !== undefined ? { x, y, ...rest } : rest;
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  };
}

/**
 * Fit a state to the displays' work areas (see the design note). With no displays the size is kept
 * (at least the minimum) and the position dropped.
 */
export function fitToDisplays(
  state: WindowState,
  displays: readonly Rect[],
  minimum: { width: number; height: number } = MIN_WINDOW_SIZE,
): WindowState {
  const { x, y, ...rest } = state;
  const width = Math.max(minimum.width, state.width);
  const height = Math.max(minimum.height, state.height);
  if (displays.length === 0) return { ...rest, width, height };
  // The display the window overlaps most; without a position, the first (primary) one.
  let target = displays[0] as Rect;
  let visible = { width: 0, height: 0 };
  if (x !== undefined && y !== undefined) {
    for (const display of displays) {
      const shared = overlap({ x, y, width, height }, display);
      if (shared.width * shared.height > visible.width * visible.height) {
        visible = shared;
        target = display;
      }
    }
  }
  const fitted = {
    ...rest,
    width: Math.min(width, Math.max(minimum.width, target.width)),
    height: Math.min(height, Math.max(minimum.height, target.height)),
  };
  if (x === undefined || y === undefined) return fitted;
  if (visible.width < MIN_VISIBLE.width || visible.height < MIN_VISIBLE.height) return fitted;
  // Mostly visible: pull it fully onto its display.
  const clampedX = Math.min(Math.max(x, target.x), target.x + target.width - fitted.width);
  const clampedY = Math.min(Math.max(y, target.y), target.y + target.height - fitted.height);
  return { ...fitted, x: Math.max(target.x, clampedX), y: Math.max(target.y, clampedY) };
}

/** Read `file` and fit it to `displays`; a missing or corrupt file gives the defaults. */
export async function loadWindowState(file: string, displays: readonly Rect[]): Promise<WindowState> {
  let stored: WindowState | null = null;
  try {
    stored = parseWindowState(JSON.parse(await fs.readFile(file, 'utf8')));
  } catch {
    stored = null;
  }
  return fitToDisplays(stored ?? DEFAULT_WINDOW_STATE, displays);
}

/** Write the state atomically (temp file, fsync, rename). */
export async function saveWindowState(file: string, state: WindowState): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(state, null, 2)}\n`);
}

/** The parts of a BrowserWindow the tracker uses (so it can be tested without Electron). */
export interface TrackedWindow {
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  isFullScreen(): boolean;
  on(event: 'resize' | 'move' | 'close', listener: () => void): unknown;
}

/**
 * Save the window's state when it moves or resizes (after `debounceMs` of quiet) and when it closes.
 * The normal bounds are saved even while maximized, so un-maximizing next time restores them.
 * `flush()` resolves when the last write finished (await it before quitting).
 */
export function trackWindowState(
  window: TrackedWindow,
  file: string,
  debounceMs = 500,
): { flush(): Promise<void> } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();
  const capture = (): WindowState => ({
    ...window.getNormalBounds(),
    maximized: window.isMaximized(),
    fullScreen: window.isFullScreen(),
  });
  const save = (state: WindowState) => {
    // Writes are chained so an older state never lands after a newer one; a failed write is not fatal.
    writing = writing.then(() => saveWindowState(file, state)).catch(() => undefined);
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      save(capture());
    }, debounceMs);
  };
  window.on('resize', schedule);
  window.on('move', schedule);
  window.on('close', () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    save(capture());
  });
  return { flush: () => writing };
}
