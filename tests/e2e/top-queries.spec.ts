// e2e: Top queries from a slow-log file (progress, charts, export, send), 100k classes in the virtualized table, and against MySQL 8.0.33 live digests, the slow-log window and mysql.slow_log.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import mysql from 'mysql2/promise';
import { useScratchDatabase } from './helpers/database.js';
import { mysqlTestUrl } from './helpers/env.js';
import { connectWithForm, formFromUrl, openWorkbench } from './helpers/workbench.js';

async function openTopQueries(page: Page): Promise<void> {
  await openWorkbench(page);
  await page.getByTestId('panel-tab-top').click();
  await expect(page.getByTestId('top-empty')).toBeVisible();
}

async function digestFile(page: Page, file: string, timeout = 60_000): Promise<void> {
  await page.getByTestId('top-source-file').check();
  await page.getByTestId('top-path').fill(file);
  await page.getByTestId('top-start').click();
  await expect(page.getByTestId('top-progress')).toContainText('done', { timeout });
}

/** The text of a downloaded export. */
async function exportText(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(button).click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8') };
}

test('slow log file: rank, sort, filter, charts, export JSON/CSV, send the slowest example to the Advisor', async ({
  page,
}) => {
  await openTopQueries(page);
  await expect(page.getByTestId('top-empty')).toContainText('slow log');

  // A missing file is an error with a code where it happened.
  await page.getByTestId('top-path').fill('tests/fixtures/slowlogs/percona/does-not-exist.log');
  await page.getByTestId('top-start').click();
  await expect(page.getByTestId('top-error')).toBeVisible();

  await digestFile(page, 'tests/fixtures/slowlogs/generated/mysql-workload.log');
  await expect(page.getByTestId('top-progress')).toContainText('events');
  const rows = page.getByTestId('top-class');
  await expect(rows.first()).toBeVisible();
  const summary = (await page.getByTestId('top-summary').textContent()) ?? '';
  const total = Number(/^([\d,]+) classes/.exec(summary)?.[1]?.replace(/,/g, ''));
  expect(total).toBeGreaterThan(5);
  await expect(page.getByTestId('top-table')).toHaveAttribute('aria-rowcount', String(total));

  // The workload timeline comes from the log's timestamps.
  const timeline = page.getByTestId('top-timeline');
  await expect(timeline.locator('svg rect').first()).toBeVisible();
  expect(Number(await timeline.getAttribute('data-buckets'))).toBeGreaterThan(0);

  // Sorting by count: descending, then ascending on a second click (the last row is scrolled into view).
  const countAt = async (rank: number) => {
    if (rank > 1)
      await page
        .getByTestId('top-scroller')
        .evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    else await page.getByTestId('top-scroller').evaluate((element) => element.scrollTo({ top: 0 }));
    const cell = page
      .locator(`[data-testid=top-class][aria-rowindex="${rank}"]`)
      .getByTestId('top-class-count');
    return Number(((await cell.textContent()) ?? '').replace(/,/g, ''));
  };
  await page.getByTestId('top-sort-count').click();
  expect(await countAt(1)).toBeGreaterThan(await countAt(total));
  await page.getByTestId('top-sort-count').click();
  await expect(page.getByTestId('top-sort-count')).toContainText('▴');
  expect(await countAt(1)).toBeLessThan(await countAt(total));
  await page.getByTestId('top-sort-totalSeconds').click();

  // Filter, and export exactly what is shown.
  await page.getByTestId('top-filter').fill('select orders');
  await expect(page.getByTestId('top-summary')).toContainText('shown');
  await page.getByTestId('top-scroller').evaluate((element) => element.scrollTo({ top: 0 }));
  const shown = Number(
    /([\d,]+) shown/.exec((await page.getByTestId('top-summary').textContent()) ?? '')?.[1],
  );
  expect(shown).toBeGreaterThan(0);
  expect(shown).toBeLessThan(total);
  await expect(page.getByTestId('top-table')).toHaveAttribute('aria-rowcount', String(shown));
  // The rows in the DOM are the first ones shown (the table is virtualized).
  const fingerprints = await rows.locator('td.top__fingerprint').allTextContents();
  const json = await exportText(page, 'top-export-json');
  expect(json.name).toMatch(/^sargable-top-queries-file-\d{8}-\d{6}\.json$/);
  const exported = JSON.parse(json.text) as {
    format: string;
    source: { kind: string };
    classes: { rank: number; fingerprint: string; count: number }[];
  };
  expect(exported.format).toBe('sargable-top-queries/1');
  expect(exported.source.kind).toBe('file');
  expect(exported.classes.length).toBe(shown);
  expect(exported.classes.slice(0, fingerprints.length).map((entry) => entry.fingerprint)).toEqual(
    fingerprints,
  );
  expect(exported.classes.map((entry) => entry.rank)).toEqual(exported.classes.map((_, index) => index + 1));
  const csv = await exportText(page, 'top-export-csv');
  expect(csv.name).toMatch(/\.csv$/);
  const lines = csv.text.trimEnd().split('\r\n');
  expect(lines[0]).toMatch(/^rank,checksum,digest,fingerprint,schemas,count,total_s,/);
  expect(lines.length).toBe(shown + 1);
  expect(lines[1]).toContain(fingerprints[0]!);

  // Keyboard: the table selects with arrows; the details show the latency distribution.
  await page.getByTestId('top-filter').fill('');
  await page.getByTestId('top-scroller').focus();
  await page.keyboard.press('ArrowDown');
  await expect(rows.first()).toHaveAttribute('aria-selected', 'true');
  // The class's Query_time histogram kept while digesting: pt-query-digest's 8 decades, every
  // event of the class counted once.
  const chart = page.getByTestId('top-latency-chart');
  await expect(chart).toHaveAttribute('data-kind', 'histogram');
  const selectedCount = Number(
    ((await rows.first().getByTestId('top-class-count').textContent()) ?? '').replace(/,/g, ''),
  );
  expect(selectedCount).toBeGreaterThan(0);
  await expect(chart).toHaveAttribute('data-total', String(selectedCount));
  await expect(chart.locator('svg rect')).toHaveCount(8);
  await expect(chart).toContainText('10s+');
  await expect(chart.locator('figcaption')).toContainText(`Query_time of ${selectedCount} statement`);
  const example = (await page.getByTestId('top-example').textContent()) ?? '';
  expect(example.length).toBeGreaterThan(0);
  // log_slow_extra fields: tmp tables, sorts, scans (MySQL logs have no full-join field).
  const execution = page.getByTestId('top-execution');
  await expect(execution).toContainText('tmp tables');
  await expect(execution).toContainText('full scans');
  await expect(execution).not.toContainText('full joins');
  await page.screenshot({ path: 'docs/screenshots/top-queries.png' });
  await page.getByTestId('top-send').click();
  await expect(page.getByTestId('editor-tab').last()).toHaveText('Top query');
  await expect(page.getByTestId('editor-tab').last()).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.monaco-editor .view-lines')).toContainText(example.trim().slice(0, 20));
});

/** Table names that stay distinct after fingerprinting (letters only: numbers would become ?). */
function letters(n: number): string {
  let text = '';
  for (let i = 0; i < 4; i++) {
    text = String.fromCharCode(97 + (n % 26)) + text;
    n = Math.floor(n / 26);
  }
  return text;
}

test('100,000 classes: the table keeps a window of rows in the DOM and scrolls to the end quickly', async ({
  page,
}, testInfo) => {
  // The digest itself needs 30-60 s for 100k distinct classes on a loaded 2-core machine.
  test.setTimeout(360_000);
  const classes = 100_000;
  // Under the temp folder: web mode opens only files the user chose, and the specs' bridge allows
  // tests/fixtures and the temp folder (--allow-dir), not test-results.
  const folder = mkdtempSync(join(os.tmpdir(), 'sargable-100k-'));
  const file = join(folder, '100k-classes.log');
  const start = Date.UTC(2026, 0, 1) / 1000;
  const parts: string[] = [];
  for (let n = 0; n < classes; n++) {
    const at = start + Math.floor(n / 50);
    parts.push(
      `# Time: ${new Date(at * 1000).toISOString().replace('.000Z', '.000000Z')}\n# User@Host: app[app] @ localhost []  Id: 7\n` +
        `# Query_time: ${((n % 997) / 1000 + 0.0001).toFixed(6)}  Lock_time: 0.000001 Rows_sent: 1  Rows_examined: ${n % 5000}\n` +
        `SET timestamp=${at};\nSELECT c FROM t_${letters(n)} WHERE id = ${n};\n`,
    );
  }
  writeFileSync(file, parts.join(''));

  await openTopQueries(page);
  const loadStart = Date.now();
  await digestFile(page, file, 240_000);
  await expect(page.getByTestId('top-summary')).toContainText('100,000 classes', { timeout: 60_000 });
  const loadMs = Date.now() - loadStart;
  rmSync(folder, { recursive: true, force: true });

  const rows = page.getByTestId('top-class');
  const domRows = await rows.count();
  expect(domRows).toBeGreaterThan(5);
  expect(domRows).toBeLessThan(80);

  // Time 40 animation frames without scrolling (what this machine gives right now), then 40
  // frames that each jump 1/40 of the list further (each frame renders a new window of rows).
  const scroller = page.getByTestId('top-scroller');
  const timeFrames = (scroll: boolean) =>
    scroller.evaluate(
      (element, move) =>
        new Promise<number[]>((resolve) => {
          const gaps: number[] = [];
          let last = performance.now();
          let step = 0;
          const tick = () => {
            const now = performance.now();
            gaps.push(now - last);
            last = now;
            step++;
            if (move) element.scrollTop = (element.scrollHeight * step) / 40;
            if (step < 40) requestAnimationFrame(tick);
            else resolve(gaps.slice(1).sort((x, y) => x - y));
          };
          requestAnimationFrame(tick);
        }),
      scroll,
    );
  // The renderer's main-thread time (Chrome's Performance metrics) separates our work from the
  // machine's load, which stretches every frame's wall time on a busy 2-core box.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const busy = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const value = (name: string) => metrics.find((metric) => metric.name === name)?.value ?? 0;
    return {
      task: value('TaskDuration'),
      script: value('ScriptDuration'),
      layout: value('LayoutDuration'),
      cpu: value('ThreadTime'),
    };
  };
  // This machine's yardstick, on the same clock: the main thread's CPU time for one sort of 100k
  // names (what a table that re-sorted the classes on every frame would add to each frame), the
  // least of three.
  let sortCpuMs = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const sortBefore = await busy();
    await page.evaluate(() => {
      const names = Array.from({ length: 100_000 }, (_, n) => `t_${(n * 7919) % 100_000}`);
      return names.sort((x, y) => x.localeCompare(y)).length;
    });
    sortCpuMs = Math.min(sortCpuMs, Math.round(((await busy()).cpu - sortBefore.cpu) * 1000));
  }
  const idle = await timeFrames(false);
  const before = await busy();
  const frames = await timeFrames(true);
  const after = await busy();
  const perFrame = (key: 'task' | 'script' | 'layout' | 'cpu') =>
    Math.round(((after[key] - before[key]) * 1000) / 40);
  expect(await rows.count()).toBeLessThan(80);
  const endStart = Date.now();
  const endBefore = await busy();
  await scroller.evaluate((element) => {
    element.scrollTop = element.scrollHeight;
  });
  await expect(page.locator('[data-testid=top-class][aria-rowindex="100000"]')).toBeVisible();
  const endMs = Date.now() - endStart;
  const endCpuMs = Math.round(((await busy()).cpu - endBefore.cpu) * 1000);
  expect(await rows.count()).toBeLessThan(80);

  // Keyboard End selects the last class; Home goes back.
  await scroller.focus();
  await page.keyboard.press('End');
  await expect(page.locator('[data-testid=top-class][aria-rowindex="100000"]')).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await page.keyboard.press('Home');
  await expect(page.locator('[data-testid=top-class][aria-rowindex="1"]')).toBeVisible();

  // Filtering 100k classes stays interactive.
  const filterStart = Date.now();
  await page.getByTestId('top-filter').fill('t_aab');
  await expect(page.getByTestId('top-summary')).toContainText('26 shown');
  const filterMs = Date.now() - filterStart;

  const at = (sorted: number[], share: number) =>
    Math.round(sorted[Math.floor((sorted.length - 1) * share)]!);
  const measured = {
    loadMs,
    domRows,
    idleFrameMedianMs: at(idle, 0.5),
    idleFrameP95Ms: at(idle, 0.95),
    scrollFrameMedianMs: at(frames, 0.5),
    scrollFrameP95Ms: at(frames, 0.95),
    scrollFrameMaxMs: at(frames, 1),
    mainThreadPerScrollFrameMs: {
      cpu: perFrame('cpu'),
      task: perFrame('task'),
      script: perFrame('script'),
      layout: perFrame('layout'),
    },
    scrollToEndMs: endMs,
    scrollToEndMainThreadMs: endCpuMs,
    sortOf100kMainThreadMs: sortCpuMs,
    filterMs,
  };
  testInfo.annotations.push({ type: 'measured', description: JSON.stringify(measured) });
  console.log(`top-queries 100k: ${JSON.stringify(measured)}`);
  // The numbers above are the measurement. Wall times stretch with the machine's load, so the bounds
  // are on the renderer main thread's CPU time (Chrome's ThreadTime), and per frame it is measured
  // against this machine's own yardstick (sortCpuMs), not a fixed number of ms that a slower CPU
  // would exceed. Each measured frame jumps 2,500 rows, so it builds a whole new window of rows (the
  // worst case; a wheel scroll reuses most rows). Under load 15 here: 10 ms per frame, 39 ms for the
  // sort. Rendering all 100k rows takes seconds per frame.
  expect(endMs).toBeLessThan(15_000);
  expect(endCpuMs).toBeLessThan(1000);
  expect(measured.mainThreadPerScrollFrameMs.cpu).toBeLessThan(2 * sortCpuMs);
});

test.describe('against MySQL 8.0.33', () => {
  const database = useScratchDatabase(
    'sargable_top',
    `CREATE TABLE orders_cap (id INT PRIMARY KEY AUTO_INCREMENT, note VARCHAR(40), amount INT);
INSERT INTO orders_cap (note, amount) VALUES ('a', 1), ('b', 2), ('c', 3), ('x', 4);`,
  );

  /** Runs the workload on a fresh connection (so it picks up a changed long_query_time) for `ms`. */
  async function workload(ms: number): Promise<number> {
    const connection = await mysql.createConnection({ uri: mysqlTestUrl().href, database });
    let statements = 0;
    const until = Date.now() + ms;
    try {
      while (Date.now() < until) {
        await connection.query("SELECT * FROM orders_cap WHERE note = 'x'");
        await connection.query('SELECT amount FROM orders_cap WHERE id = 2');
        statements += 2;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await connection.end();
    }
    return statements;
  }

  test('live digests: capture a window, latency histogram, timeline, send the digest text to EXPLAIN with placeholders', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await openWorkbench(page);
    await connectWithForm(page, formFromUrl(mysqlTestUrl(), database));
    await page.getByTestId('panel-tab-top').click();
    await page.getByTestId('top-source-digests').check();
    await page.getByTestId('top-window').fill('6');
    await page.getByTestId('top-start').click();
    await expect(page.getByTestId('top-progress')).toContainText('capturing');
    // The live window shows at once, empty, with its start time.
    await expect(page.getByTestId('top-window-info')).toContainText('Live window from');
    const ran = await workload(3000);
    // While it still captures, the table already holds the window so far (it refreshes every step).
    await expect(page.getByTestId('top-class').first()).toBeVisible({ timeout: 10_000 });
    await expect(page.getByTestId('top-live-state')).toHaveText('capturing');
    await expect(page.getByTestId('top-window-info')).toContainText('so far');
    // The window ends: its head says from when and how long it ran.
    await expect(page.getByTestId('top-live-state')).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByTestId('top-window-info')).toHaveText(/^Window from .+ · [5-7] s$/);
    await expect(page.getByTestId('top-summary')).toContainText('statements');

    await page.getByTestId('top-filter').fill('orders_cap note');
    const row = page.getByTestId('top-class').first();
    await expect(row).toContainText('orders_cap');
    const count = Number(((await row.getByTestId('top-class-count').textContent()) ?? '').replace(/,/g, ''));
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(ran / 2);
    await row.click();

    // MySQL 8.0: the server's own histogram (events_statements_histogram_by_digest).
    const chart = page.getByTestId('top-latency-chart');
    await expect(chart).toHaveAttribute('data-kind', 'histogram');
    await expect(chart.locator('rect.top-chart__bar').first()).toBeAttached();
    const timeline = page.getByTestId('top-timeline');
    expect(Number(await timeline.getAttribute('data-buckets'))).toBeGreaterThanOrEqual(2);
    await expect(page.getByTestId('top-example')).toContainText("note = 'x'");
    // performance_schema counts every one of them, full joins included.
    await expect(page.getByTestId('top-execution')).toContainText('full joins');
    await page.screenshot({ path: 'docs/screenshots/top-queries-live.png' });

    // The normalized text has a placeholder: EXPLAIN asks for its value first.
    await page.getByTestId('top-statement').selectOption('normalized');
    await expect(page.getByTestId('top-example')).toContainText('?');
    await expect(page.getByTestId('top-placeholder-note')).toContainText('1 ? placeholder');
    await page.getByTestId('top-send-explain').click();
    const dialog = page.getByTestId('placeholders-dialog');
    await expect(dialog).toBeVisible();
    await dialog.getByTestId('placeholder-value').first().fill("'x'");
    await dialog.getByTestId('placeholders-submit').click();
    await expect(page.getByTestId('plan-node-table').first()).toContainText('orders_cap');
    await expect(page.locator('.monaco-editor .view-lines')).toContainText("note = 'x'");
  });

  test('slow-log window with consent (restored afterwards), then mysql.slow_log read into classes', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const admin = await mysql.createConnection({ uri: mysqlTestUrl().href });
    const settings =
      'SELECT @@GLOBAL.slow_query_log AS s, @@GLOBAL.long_query_time AS l, @@GLOBAL.log_output AS o';
    const [before] = await admin.query(settings);
    try {
      await openWorkbench(page);
      await connectWithForm(page, formFromUrl(mysqlTestUrl(), database));
      await page.getByTestId('panel-tab-top').click();
      await page.getByTestId('top-source-table').check();
      await page.getByTestId('top-window').fill('4');
      await page.getByTestId('top-window-start').click();
      const confirm = page.getByTestId('top-window-confirm');
      await expect(confirm.getByTestId('confirm-sql')).toContainText('SET GLOBAL slow_query_log');
      await expect(confirm.getByTestId('confirm-sql')).toContainText('restore');
      await confirm.getByTestId('confirm-ok').click();
      await expect(page.getByTestId('top-progress')).toContainText('running');
      await new Promise((resolve) => setTimeout(resolve, 300));
      await workload(2500);
      await expect(page.getByTestId('top-progress')).toContainText('done', { timeout: 30_000 });
      await page.getByTestId('top-filter').fill('orders_cap note');
      await expect(page.getByTestId('top-class').first()).toContainText('orders_cap');
      const [after] = await admin.query(settings);
      expect(after).toEqual(before);

      // The same rows are in mysql.slow_log: read the table.
      await page.getByTestId('top-filter').fill('');
      await page.getByTestId('top-start').click();
      await expect(page.getByTestId('top-summary')).toContainText('mysql.slow_log');
      await page.getByTestId('top-filter').fill('orders_cap note');
      const row = page.getByTestId('top-class').first();
      await expect(row).toContainText('orders_cap');
      await row.click();
      const count = ((await row.getByTestId('top-class-count').textContent()) ?? '').replace(/,/g, '');
      await expect(page.getByTestId('top-latency-chart')).toHaveAttribute('data-kind', 'histogram');
      await expect(page.getByTestId('top-latency-chart')).toHaveAttribute('data-total', count);
      expect(Number(await page.getByTestId('top-timeline').getAttribute('data-buckets'))).toBeGreaterThan(0);
      await expect(page.getByTestId('top-example')).toContainText("note = 'x'");
    } finally {
      await admin.end();
    }
  });
});
