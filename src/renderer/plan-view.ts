// Pure helpers for the Plan panel: node tones, bar scales, default collapsing, statement at cursor, finding links.
import type { Flag, PlanNode } from '../core/explain/index.js';
import { walkPlan } from '../core/explain/index.js';
import { splitStatements, type StatementSlice } from '../core/sql/split.js';
import type { ReportItem } from './report-items.js';

/** How a flag is shown: red (reads everything), amber (extra work), green (good news), plain. */
export type Tone = 'bad' | 'warn' | 'good' | 'plain';

const flagTones: Partial<Record<Flag, Tone>> = {
  'full-scan': 'bad',
  'full-index-scan': 'warn',
  filesort: 'warn',
  temporary: 'warn',
  'join-buffer': 'warn',
  'dependent-subquery': 'warn',
  'uncacheable-subquery': 'warn',
  'range-checked': 'warn',
  'covering-index': 'good',
  'index-condition': 'good',
};

/** Tone of one flag. */
export function flagTone(flag: Flag): Tone {
  return flagTones[flag] ?? 'plain';
}

/** Worst tone of a node's flags (a full scan makes the whole card red). */
export function nodeTone(node: PlanNode): Tone {
  const tones = node.flags.map(flagTone);
  if (tones.includes('bad')) return 'bad';
  if (tones.includes('warn')) return 'warn';
  return 'plain';
}

/** Largest values in the tree, so bars are relative to the biggest node. */
export interface PlanScale {
  nodes: number;
  maxRows: number;
  maxCost: number;
  analyzed: boolean;
}

/** Scale for the bars and whether any node carries ANALYZE numbers. */
export function planScale(root: PlanNode): PlanScale {
  let maxRows = 0;
  let maxCost = 0;
  let analyzed = false;
  const all = walkPlan(root);
  for (const node of all) {
    maxRows = Math.max(maxRows, node.rowsEstimated ?? 0, node.rowsActual ?? 0);
    maxCost = Math.max(maxCost, node.cost ?? 0);
    if (node.rowsActual !== null || node.timeMs !== null) analyzed = true;
  }
  return { nodes: all.length, maxRows, maxCost, analyzed };
}

/** Bar width in percent (at least a sliver for non-zero values), or null when the value is unknown. */
export function barPercent(value: number | null, max: number): number | null {
  if (value === null || max <= 0) return null;
  if (value <= 0) return 0;
  return Math.max(2, Math.round((value / max) * 100));
}

/** Plans above this many nodes start collapsed below `collapseDepth`. */
export const largePlanNodes = 100;
const collapseDepth = 2;

/** Ids of nodes collapsed when a plan is first shown (only for large plans). */
export function initialCollapsed(root: PlanNode): Set<string> {
  const collapsed = new Set<string>();
  const all = walkPlan(root);
  if (all.length <= largePlanNodes) return collapsed;
  for (const node of all) {
    const depth = node.id.split('.').length - 1;
    if (depth >= collapseDepth && node.children.length > 0) collapsed.add(node.id);
  }
  return collapsed;
}

/** Ids of every node with children (Collapse all). */
export function parentIds(root: PlanNode): Set<string> {
  return new Set(
    walkPlan(root)
      .filter((node) => node.children.length > 0)
      .map((node) => node.id),
  );
}

/** `99,015`, `1.2M`, `—` for unknown. */
export function formatCount(value: number | null): string {
  if (value === null) return '—';
  if (value >= 10_000_000) return `${(value / 1_000_000).toFixed(1)}M`;
  return Math.round(value * 100) % 100 === 0
    ? Math.round(value).toLocaleString('en-US')
    : value.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** `12 MB` style sizes. */
export function formatBytes(value: number | null): string {
  if (value === null) return 'unknown size';
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let size = value;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? size : size.toFixed(1)} ${units[unit]}`;
}

/** The statement the cursor is in (or the last one before it, or the first after it). */
export function statementAt(text: string, offset: number): StatementSlice | null {
  const slices = splitStatements(text);
  let best: StatementSlice | null = null;
  for (const slice of slices) {
    if (slice.offset <= offset) best = slice;
    // The cursor right after `;` or in blank lines after a statement still means that statement.
    if (slice.offset <= offset && offset <= slice.offset + slice.sql.length + 1) return slice;
  }
  return best ?? slices[0] ?? null;
}

/**
 * The text analyzed for "statement at cursor": every other statement is blanked to spaces (newlines kept),
 * so finding positions still match the editor. CREATE TABLE statements stay: they are the offline schema.
 */
export function isolateStatement(text: string, keep: StatementSlice): string {
  const slices = splitStatements(text);
  let out = '';
  let position = 0;
  for (const slice of slices) {
    const end = slice.offset + slice.sql.length;
    if (slice.offset === keep.offset || /^create\s/i.test(slice.sql)) continue;
    out += text.slice(position, slice.offset) + slice.sql.replace(/[^\n]/g, ' ');
    position = end;
  }
  return out + text.slice(position);
}

/** True for statements EXPLAIN ANALYZE may run (it executes them): plain SELECT / WITH … SELECT / TABLE. */
export function isReadOnlyQuery(sql: string): boolean {
  const head = sql.replace(/^(\s|--[^\n]*\n|#[^\n]*\n|\/\*[\s\S]*?\*\/)+/, '');
  if (!/^(select|with|table|\()/i.test(head)) return false;
  return !/\bfor\s+(update|share)\b|\block\s+in\s+share\s+mode\b|\binto\s+(outfile|dumpfile|@)/i.test(head);
}

/** Aliases a statement gives `table` (`products p`, `products AS p`), plus the name itself. */
export function tableNames(sql: string, table: string): Set<string> {
  const names = new Set([table.toLowerCase()]);
  const escaped = table.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(
    `(?:^|[\\s,(.\`])${escaped}\`?\\s+(?:as\\s+)?\`?([A-Za-z_][A-Za-z0-9_$]*)`,
    'gi',
  );
  const keywords =
    /^(where|join|inner|left|right|cross|straight_join|on|using|group|order|limit|having|union|for|set|natural|window|lock|force|ignore|use|partition)$/i;
  for (const match of sql.matchAll(pattern)) {
    const alias = match[1];
    if (alias && !keywords.test(alias)) names.add(alias.toLowerCase());
  }
  return names;
}

/**
 * A statement's text for matching: no leading comments (a statement's slice starts with the comment
 * lines above it), whitespace runs as one space, no trailing `;` or `\G`, lower case.
 */
function statementKey(sql: string): string {
  return sql
    .replace(/^(\s|--[^\n]*(?:\n|$)|#[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)+/, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*(?:;|\\G)\s*$/i, '')
    .trim()
    .toLowerCase();
}

/**
 * The report items of the statement a plan is for: findings belong to their statement, so a plan of
 * one SELECT never shows the findings of another statement on the same table. The plan's statement is
 * found in the report by its text; without a statement (a pasted plan that names none) there are none.
 */
export function itemsOfStatement(
  items: readonly ReportItem[],
  statements: readonly { index: number; sql: string }[],
  sql: string | null,
): ReportItem[] {
  if (!sql) return [];
  const key = statementKey(sql);
  const indexes = new Set(statements.filter((entry) => statementKey(entry.sql) === key).map((s) => s.index));
  return items.filter((item) => item.kind === 'finding' && indexes.has(item.statementIndex));
}

/**
 * Findings that explain a bad node: same table (or its alias in `sql`), when the node reads more than it
 * should (full scan, full index scan, filesort, temporary table). `items` are the plan's statement's
 * (see {@link itemsOfStatement}).
 */
export function findingsForNode(
  node: PlanNode,
  items: readonly ReportItem[],
  sql: string | null,
): ReportItem[] {
  if (node.table === null || nodeTone(node) === 'plain') return [];
  const table = node.table.toLowerCase();
  return items.filter((item) => {
    if (item.kind !== 'finding' || item.finding.table === null) return false;
    const names = sql ? tableNames(sql, item.finding.table) : new Set([item.finding.table.toLowerCase()]);
    return names.has(table);
  });
}
