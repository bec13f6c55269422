// Puts condition runs back into the AST parsed from the elided text: every `loc` moved back to the
// statement's own offsets, lines and columns, each placeholder replaced by its run's nodes spliced into
// the surrounding AND chain as the grammar builds it (design note in condition-runs.ts).

import type { AstNode } from './ast.js';
import { chain, type Loc, Reader } from './condition-runs-reader.js';

/** One replaced run: where its placeholder stands and the elements to put back. */
export interface ConditionRun {
  /** Offsets of the run in the statement (its first token's start, its last token's end). */
  start: number;
  end: number;
  /** Offset of its placeholder `` `name` `` in the elided text. */
  elidedStart: number;
  /** The placeholder's name (`z0`, `z1`, …). */
  name: string;
  /**
   * The run's items in order, joined by the clause's chain: an element, or elements the grammar's
   * own `a AND b` rule joined first (after an `IN (…)`, which leaves the whitespace before AND).
   */
  elements: AstNode[];
  /** End of the run's chain `loc` (after the whitespace following the last element). */
  locEnd: number;
  /**
   * When the last element keeps the whitespace after it out of its `loc` (an IN list), how much
   * whitespace follows: the placeholder's chain would end after it, the run's ends before.
   */
  trailingSpace: number;
  /** Length of the placeholder text (`` `z0` ``, or `` JOIN `z0` `` for joins). */
  placeholderLength: number;
  /** For a run of joins (`JOIN t a ON …` …, replaced by `` JOIN `z0` ``): the FROM entries. */
  joins?: AstNode[];
}

/** The text the parser sees and the runs to put back. */
export interface ConditionElision {
  text: string;
  runs: ConditionRun[];
}
type Point = { offset: number; line: number; column: number };

/** The FROM entry the grammar builds for `` JOIN `zN` ``. */
function isJoinPlaceholder(item: unknown): item is AstNode {
  if (typeof item !== 'object' || item === null) return false;
  const entry = item as AstNode;
  return (
    entry.join === 'INNER JOIN' &&
    entry.on === null &&
    entry.db === null &&
    typeof entry.table === 'string' &&
    /^z[0-9a-z]+$/.test(entry.table)
  );
}

/**
 * Put the runs back into the AST parsed from `elision.text` (mutates it): every `loc` is moved
 * back to the statement's own offsets, lines and columns, then each placeholder is replaced by its
 * run. Returns false when a placeholder is not where it should be, in which case the AST must be
 * discarded.
 */
export function restoreConditionRuns(ast: AstNode, elision: ConditionElision, sql: string): boolean {
  const byStart = new Map(elision.runs.map((run) => [run.start, run]));
  const byName = new Map(elision.runs.filter((run) => run.joins).map((run) => [run.name, run]));
  let restored = 0;
  let consistent = true;
  const reader = new Reader(sql, []);
  // Elided offset → statement offset: shift by what the runs before it removed.
  const runs = elision.runs;
  const original = (offset: number, edge: 'start' | 'end'): number => {
    let shift = 0;
    for (const run of runs) {
      const placeholderEnd = run.elidedStart + run.placeholderLength;
      if (offset < placeholderEnd) {
        // At or inside a placeholder: its start is the run's start.
        if (offset >= run.elidedStart) return offset === run.elidedStart ? run.start : run.end;
        break;
      }
      // A chain ending with the placeholder ends after its whitespace; one ending with an IN list does not.
      if (
        edge === 'end' &&
        run.trailingSpace > 0 &&
        offset > placeholderEnd &&
        offset <= placeholderEnd + run.trailingSpace
      )
        return run.end;
      shift = run.end - placeholderEnd;
    }
    return offset + shift;
  };
  const moved = new WeakSet<object>();
  const move = (loc: unknown): void => {
    if (typeof loc !== 'object' || loc === null || moved.has(loc)) return;
    moved.add(loc);
    const points = loc as { start?: Point; end?: Point };
    for (const edge of ['start', 'end'] as const) {
      const point = points[edge];
      if (point && typeof point.offset === 'number')
        points[edge] = reader.point(original(point.offset, edge));
    }
  };
  const visit = (holder: AstNode | unknown[], key: string | number, value: unknown): void => {
    if (!consistent || typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const item: unknown = value[index];
        const run = isJoinPlaceholder(item) ? byName.get(item.table as string) : undefined;
        if (run?.joins) {
          // A FROM entry `JOIN \`zN\``: the joins it stands for (built on the statement's own positions).
          value.splice(index, 1, ...run.joins);
          index += run.joins.length - 1;
          byStart.delete(run.start);
          restored++;
          continue;
        }
        visit(value, index, item);
      }
      return;
    }
    const node = value as AstNode;
    move(node.loc);
    if (node.type === 'column_ref') {
      const start = (node.loc as { start?: Point } | undefined)?.start?.offset;
      const run = start === undefined ? undefined : byStart.get(start);
      if (!run) return;
      if (node.column !== run.name || node.table !== null || Array.isArray(holder)) {
        consistent = false;
        return;
      }
      const parent = holder;
      const elements = run.elements;
      const chained =
        parent.type === 'binary_expr' && (parent.operator === 'AND' || parent.operator === 'OR');
      if (chained && node.parentheses !== true && key === 'right') {
        // `x AND run`: continue x's chain with the run's elements, as the grammar would have. (A run
        // never follows OR.)
        if (parent.operator !== 'AND') {
          consistent = false;
          return;
        }
        const loc = parent.loc as Loc;
        parent.left = chain([parent.left as AstNode, ...elements.slice(0, -1)], 'AND', loc);
        parent.right = elements[elements.length - 1];
      } else if (chained && node.parentheses !== true && key === 'left') {
        // `run AND x`, `run OR x`: the run's ANDs belong to the same chain, with its `loc`.
        parent.left = chain(elements, 'AND', parent.loc as Loc);
      } else {
        const root = chain(elements, 'AND', reader.loc(run.start, run.locEnd));
        if (node.parentheses === true) {
          if (root.parentheses === true) {
            consistent = false;
            return;
          }
          root.parentheses = true;
        }
        parent[key as string] = root;
      }
      byStart.delete(run.start);
      restored++;
      return;
    }
    // The grammar's own bookkeeping of the columns and tables it met would name the placeholder.
    delete node.columnList;
    delete node.tableList;
    for (const [childKey, child] of Object.entries(node))
      if (childKey !== 'loc') visit(node, childKey, child);
  };
  visit([ast], 0, ast);
  return consistent && restored === elision.runs.length;
}
