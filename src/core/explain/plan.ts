// The one plan model every EXPLAIN format (MySQL and MariaDB) is parsed into, plus small tree helpers.
//
// Design note: a plan is a tree of PlanNode. Table accesses are nodes with `table` set; operations that
// do not read a table (sort, join, materialize, union, subquery, select block) are nodes with `table: null`
// and a human `operation`. Each parser maps the fields it understands onto the node and keeps every other
// field of the source object, verbatim, in `extra` (unknown fields are never dropped). Ids are assigned after
// parsing from the node's position ("1", "1.2", "1.2.1"), so the same input always gives the same ids.

import type { Flavor } from '../flavors/capabilities.js';

/** Access types as printed by MySQL/MariaDB in the `type` column or `access_type`; other strings pass through. */
export type AccessType =
  | 'ALL'
  | 'index'
  | 'range'
  | 'ref'
  | 'eq_ref'
  | 'const'
  | 'system'
  | 'fulltext'
  | 'ref_or_null'
  | 'index_merge'
  | 'unique_subquery'
  | 'index_subquery'
  | (string & {});

/** Every flag a node can carry, in the order they are listed on a node. */
export const planFlags = [
  'full-scan',
  'full-index-scan',
  'filesort',
  'temporary',
  'join-buffer',
  'hash-join',
  'covering-index',
  'index-condition',
  'index-merge',
  'mrr',
  'using-where',
  'dependent-subquery',
  'uncacheable-subquery',
  'materialized',
  'first-match',
  'loose-scan',
  'duplicate-weedout',
  'not-exists',
  'range-checked',
  'backward-index-scan',
  'impossible-where',
  'no-matching-row',
  'optimized-away',
  'never-executed',
] as const;

/** A property of a node worth showing to a user (docs/explain.md explains each). */
export type Flag = (typeof planFlags)[number];

/** One node of a plan tree (the CLI JSON contract: names never change). */
export interface PlanNode {
  /** Position in the tree: "1" is the root, "1.2" its second child. */
  id: string;
  table: string | null;
  accessType: AccessType | null;
  key: string | null;
  possibleKeys: string[];
  keyLength: number | null;
  ref: string | null;
  /** Rows the optimizer expects this node to examine (per loop). */
  rowsEstimated: number | null;
  /** Rows actually produced per loop (ANALYZE only). */
  rowsActual: number | null;
  /** Times the node ran (ANALYZE only). */
  loops: number | null;
  /** Total milliseconds spent in the node over all loops (ANALYZE only). */
  timeMs: number | null;
  /** Percentage of examined rows expected to pass the table condition. */
  filtered: number | null;
  /** Optimizer cost (server units; MySQL only, MariaDB ≥ 11 too). */
  cost: number | null;
  condition: string | null;
  /** `select_type` when the format prints it (traditional rows). */
  selectType?: string;
  operation: string;
  flags: Flag[];
  /** Source fields the model has no place for, kept verbatim. */
  extra: Record<string, unknown>;
  children: PlanNode[];
}

/** The formats the parsers read. `analyze` is MySQL EXPLAIN ANALYZE text; `analyze-json` is MariaDB ANALYZE FORMAT=JSON. */
export type PlanFormat = 'traditional' | 'json' | 'tree' | 'analyze' | 'analyze-json';

/** A parsed plan. */
export interface PlanReport {
  format: PlanFormat;
  flavor: Flavor | 'unknown';
  root: PlanNode;
  warnings: string[];
}

/** A clear, non-throwing parse failure, with a 1-based position in the input when known. */
export interface PlanParseError {
  code: 'PARSE_FAILED' | 'UNSUPPORTED';
  message: string;
  line: number | null;
  column: number | null;
}

/** Result of every parser: a report or an error object, never an exception. */
export type PlanParseResult = { ok: true; report: PlanReport } | { ok: false; error: PlanParseError };

/** Build a node with every field present (stable key order for JSON output); ids are filled in later. */
export function makeNode(fields: Partial<PlanNode> & { operation: string }): PlanNode {
  const node: PlanNode = {
    id: '',
    table: fields.table ?? null,
    accessType: fields.accessType ?? null,
    key: fields.key ?? null,
    possibleKeys: fields.possibleKeys ?? [],
    keyLength: fields.keyLength ?? null,
    ref: fields.ref ?? null,
    rowsEstimated: fields.rowsEstimated ?? null,
    rowsActual: fields.rowsActual ?? null,
    loops: fields.loops ?? null,
    timeMs: fields.timeMs ?? null,
    filtered: fields.filtered ?? null,
    cost: fields.cost ?? null,
    condition: fields.condition ?? null,
    operation: fields.operation,
    flags: sortFlags(fields.flags ?? []),
    extra: fields.extra ?? {},
    children: fields.children ?? [],
  };
  if (fields.selectType !== undefined) {
    // Keep selectType right after condition for readable JSON.
    const { operation, flags, extra, children, ...head } = node;
    return { ...head, selectType: fields.selectType, operation, flags, extra, children };
  }
  return node;
}

/** Deduplicate and order flags as in `planFlags`. */
export function sortFlags(flags: Iterable<Flag>): Flag[] {
  const set = new Set(flags);
  return planFlags.filter((flag) => set.has(flag));
}

/** Add flags to a node in place, keeping the canonical order. */
export function addFlags(node: PlanNode, ...flags: Flag[]): void {
  node.flags = sortFlags([...node.flags, ...flags]);
}

/** Assign positional ids ("1", "1.1", …) to a tree, in place; returns the root. */
export function assignIds(root: PlanNode, prefix = '1'): PlanNode {
  root.id = prefix;
  root.children.forEach((child, index) => assignIds(child, `${prefix}.${index + 1}`));
  return root;
}

/** Every node of the tree, depth first, parents before children. */
export function walkPlan(root: PlanNode): PlanNode[] {
  const out: PlanNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    out.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return out;
}

/** Nodes that read a table (base table, derived table, temporary/union result). */
export function tableNodes(root: PlanNode): PlanNode[] {
  return walkPlan(root).filter((node) => node.table !== null);
}

/** Parse a number from a server field (numbers arrive as numbers, numeric strings, or "NULL"). */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed === '' || trimmed.toUpperCase() === 'NULL') return null;
    const parsed = Number(trimmed);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

/** Round to at most `digits` decimals, dropping float noise (0.1 + 0.2). */
export function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Flags implied by an access type: ALL on a base table is a full scan, `index` a full index scan. */
export function accessFlags(accessType: string | null, table: string | null): Flag[] {
  const flags: Flag[] = [];
  const base = table !== null && !table.startsWith('<');
  if (accessType === 'ALL' && base) flags.push('full-scan');
  if (accessType === 'index' && base) flags.push('full-index-scan');
  if (accessType === 'index_merge') flags.push('index-merge');
  return flags;
}
