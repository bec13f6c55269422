import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_WINDOW_STATE,
  fitToDisplays,
  loadWindowState,
  parseWindowState,
  saveWindowState,
  trackWindowState,
  type Rect,
  type WindowState,
} from '../../../src/main/window-state.js';

/** A 1920×1080 primary display (work area minus a 40 px panel) and a 1280×1024 display on its right. */
const primary: Rect = { x: 0, y: 40, width: 1920, height: 1040 };
const right: Rect = { x: 1920, y: 0, width: 1280, height: 1024 };

function state(partial: Partial<WindowState>): WindowState {
  return { ...DEFAULT_WINDOW_STATE, ...partial };
}

describe('fitToDisplays', () => {
  it('keeps, clamps, moves or drops a saved position (golden cases)', () => {
    const cases: Record<string, [WindowState, Rect[]]> = {
      fitsOnPrimary: [state({ x: 100, y: 100, width: 1200, height: 800 }), [primary, right]],
      onSecondDisplay: [state({ x: 2000, y: 50, width: 1000, height: 700 }), [primary, right]],
      secondDisplayUnplugged: [state({ x: 2000, y: 50, width: 1000, height: 700 }), [primary]],
      tooBigForItsDisplay: [state({ x: 1950, y: 10, width: 2500, height: 1500 }), [primary, right]],
      hangsOffTheBottomRight: [state({ x: 1500, y: 900, width: 1000, height: 700 }), [primary]],
      onlyTheCornerVisible: [state({ x: 1900, y: 1060, width: 1000, height: 700 }), [primary]],
      noPosition: [state({ width: 3000, height: 400 }), [primary]],
      belowMinimum: [state({ x: 10, y: 50, width: 300, height: 200 }), [primary]],
      noDisplays: [state({ x: 10, y: 50, width: 1000, height: 700, maximized: true }), []],
    };
    const fitted = Object.fromEntries(
      Object.entries(cases).map(([name, [input, displays]]) => [name, fitToDisplays(input, displays)]),
    );
    const flags = { maximized: false, fullScreen: false };
    expect(fitted).toEqual({
      fitsOnPrimary: { x: 100, y: 100, width: 1200, height: 800, ...flags },
      onSecondDisplay: { x: 2000, y: 50, width: 1000, height: 700, ...flags },
      // Nothing left on a display: centred (no position) at the saved size.
      secondDisplayUnplugged: { width: 1000, height: 700, ...flags },
      // Clamped to the 1280×1024 display it is on, and pulled onto it.
      tooBigForItsDisplay: { x: 1920, y: 0, width: 1280, height: 1024, ...flags },
      // Mostly visible: moved fully onto the display.
      hangsOffTheBottomRight: { x: 920, y: 380, width: 1000, height: 700, ...flags },
      // 20×20 px visible is not enough to grab the title bar: centred.
      onlyTheCornerVisible: { width: 1000, height: 700, ...flags },
      noPosition: { width: 1920, height: 500, ...flags },
      belowMinimum: { x: 10, y: 50, width: 800, height: 500, ...flags },
      noDisplays: { width: 1000, height: 700, maximized: true, fullScreen: false },
    });
  });
});

describe('parseWindowState', () => {
  it('accepts a saved state and rejects anything else', () => {
    expect(parseWindowState({ x: 1, y: 2, width: 900, height: 600, maximized: true })).toEqual({
      x: 1,
      y: 2,
      width: 900,
      height: 600,
      maximized: true,
      fullScreen: false,
    });
    // Half a position is no position.
    expect(parseWindowState({ x: 1, width: 900, height: 600 })).toEqual({
      width: 900,
      height: 600,
      maximized: false,
      fullScreen: false,
    });
    expect(
      [
        null,
        [],
        'x',
        { width: 0, height: 600 },
        { width: 900.5, height: 600 },
        { width: 900, height: 600, x: 1e9, y: 0 },
        { width: '900', height: 600 },
      ].map(parseWindowState),
    ).toEqual([null, null, null, null, null, null, null]);
  });
});

describe('loadWindowState / saveWindowState', () => {
  const dirs: string[] = [];
  const tempFile = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sargable-window-'));
    dirs.push(dir);
    return path.join(dir, 'nested', 'window-state.json');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('round-trips through an atomic write and leaves no temp file', async () => {
    const file = tempFile();
    const saved = state({ x: 200, y: 150, width: 1000, height: 700, maximized: true });
    await saveWindowState(file, saved);
    expect(await loadWindowState(file, [primary])).toEqual(saved);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['window-state.json']);
  });

  it('gives the defaults for a missing, corrupt or invalid file', async () => {
    const file = tempFile();
    const defaults = fitToDisplays(DEFAULT_WINDOW_STATE, [primary]);
    expect(await loadWindowState(file, [primary])).toEqual(defaults);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    for (const text of ['{"width": 1000, "heig', '', '{"width": -5, "height": 100}', '\u0000\u0001']) {
      fs.writeFileSync(file, text);
      expect(await loadWindowState(file, [primary])).toEqual(defaults);
    }
  });
});

describe('trackWindowState', () => {
  it('saves the normal bounds after moves settle and on close; flush waits for the write', async () => {
    vi.useFakeTimers();
    try {
      const listeners = new Map<string, () => void>();
      let bounds: Rect = { x: 10, y: 60, width: 900, height: 600 };
      let maximized = false;
      const window = {
        getNormalBounds: () => bounds,
        isMaximized: () => maximized,
        isFullScreen: () => false,
        on: (event: string, listener: () => void) => listeners.set(event, listener),
      };
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sargable-window-'));
      const file = path.join(dir, 'window-state.json');
      const tracker = trackWindowState(window, file, 500);
      bounds = { x: 20, y: 70, width: 950, height: 650 };
      listeners.get('move')?.();
      listeners.get('resize')?.();
      await tracker.flush();
      expect(fs.existsSync(file)).toBe(false);
      await vi.advanceTimersByTimeAsync(500);
      vi.useRealTimers();
      await tracker.flush();
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
        ...bounds,
        maximized: false,
        fullScreen: false,
      });
      // Maximized: the normal bounds are kept, with the flag.
      maximized = true;
      listeners.get('close')?.();
      await tracker.flush();
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
        ...bounds,
        maximized: true,
        fullScreen: false,
      });
      fs.rmSync(dir, { recursive: true, force: true });
    } finally {
      vi.useRealTimers();
    }
  });
});
