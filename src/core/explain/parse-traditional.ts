// Parser for traditional (tabular) EXPLAIN rows, as mysql2 returns them or as read from pasted text.
//
// Design note: traditional EXPLAIN is a flat list; the tree is implied by `id` (one SELECT per id) and by the
// `<derivedN>`, `<subqueryN>`, `<unionA,B>` placeholder table names that point at other SELECTs. We group rows
// by id (a UNION RESULT row has id NULL and forms its own group), hang each referenced group under the row that
// names it, and hang the remaining groups (dependent or scalar subqueries) under the first group. A group with
// one id becomes a "Select #N" node whose children are its table rows in join order. `Extra` is split on "; "
// into flags; text we do not recognise stays in `extra.Extra` untouched.

import type { Flavor } from '../flavors/capabilities.js';
import {
  accessFlags,
  addFlags,
  assignIds,
  makeNode,
  toNumber,
  type Flag,
  type PlanNode,
  type PlanParseResult,
} from './plan.js';

/** One traditional EXPLAIN row (mysql2 row object; values may be numbers, strings or null). */
export type TraditionalRow = Record<string, unknown>;

const mappedColumns = new Set([
  'id',
  'select_type',
  'table',
  'type',
  'possible_keys',
  'key',
  'key_len',
  'ref',
  'rows',
  'filtered',
  'Extra',
]);

/** Map one `Extra` item to flags; returns null when the item is not recognised. */
export function flagsForExtraItem(item: string): Flag[] | null {
  const text = item.trim();
  if (text === '') return [];
  if (text === 'Using where' || text.startsWith('Using where with pushed condition')) return ['using-where'];
  if (text === 'Using index') return ['covering-index'];
  if (text === 'Using index for group-by' || text.startsWith('Using index for skip scan'))
    return ['covering-index'];
  if (text === 'Using index condition' || text.startsWith('Using index condition'))
    return ['index-condition'];
  if (text === 'Using filesort') return ['filesort'];
  if (text === 'Using temporary') return ['temporary'];
  if (text.startsWith('Using join buffer'))
    return text.includes('hash join') ? ['join-buffer', 'hash-join'] : ['join-buffer'];
  if (/^Using (sort_union|union|intersect)\(/.test(text)) return ['index-merge'];
  if (text === 'Using MRR' || text === 'Rowid-ordered scan' || text === 'Key-ordered scan') return ['mrr'];
  if (text.startsWith('Impossible WHERE') || text.startsWith('Impossible HAVING'))
    return ['impossible-where'];
  if (text.startsWith('no matching row in const table') || text === 'No matching min/max row')
    return ['no-matching-row'];
  if (text === 'Select tables optimized away') return ['optimized-away'];
  if (text.startsWith('FirstMatch')) return ['first-match'];
  if (text.startsWith('LooseScan')) return ['loose-scan'];
  if (text === 'Start temporary' || text === 'End temporary') return ['duplicate-weedout'];
  if (text === 'Not exists') return ['not-exists'];
  if (text.startsWith('Range checked for each record')) return ['range-checked'];
  if (text === 'Backward index scan') return ['backward-index-scan'];
  if (text === 'Using buffer' || text.startsWith('Ft_hints:') || text === 'Using temporary table for update')
    return [];
  if (
    text === 'Distinct' ||
    text === 'Zero limit' ||
    text === 'No tables used' ||
    text.startsWith('Full scan on NULL key')
  )
    return [];
  return null;
}

/** Flags for a whole `Extra` cell (items separated by "; "), plus the items no rule recognised. */
export function flagsForExtra(extra: string | null): { flags: Flag[]; unknown: string[] } {
  const flags: Flag[] = [];
  const unknown: string[] = [];
  if (!extra) return { flags, unknown };
  for (const item of extra.split(/;\s*/)) {
    const mapped = flagsForExtraItem(item);
    if (mapped === null) unknown.push(item.trim());
    else flags.push(...mapped);
  }
  return { flags, unknown };
}

function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const string = String(value);
  return string.toUpperCase() === 'NULL' ? null : string;
}

function selectTypeFlags(selectType: string | null): Flag[] {
  if (!selectType) return [];
  const flags: Flag[] = [];
  if (selectType.startsWith('DEPENDENT')) flags.push('dependent-subquery');
  if (selectType.startsWith('UNCACHEABLE')) flags.push('uncacheable-subquery');
  if (selectType === 'DERIVED' || selectType === 'MATERIALIZED') flags.push('materialized');
  return flags;
}

/** Turn one row into a node (no children yet). */
function rowNode(row: TraditionalRow): PlanNode {
  const table = text(row.table);
  const accessType = text(row.type);
  const extraText = text(row.Extra ?? row.extra);
  const { flags } = flagsForExtra(extraText);
  const extra: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) {
    if (!mappedColumns.has(name) && name !== 'extra') extra[name] = value;
  }
  if (extraText !== null) extra.Extra = extraText;
  const possible = text(row.possible_keys);
  const keyLength = text(row.key_len);
  // key_len of an index_merge is a list ("4,66"); keep the list and report the first part as keyLength.
  if (keyLength !== null && keyLength.includes(',')) extra.key_len = keyLength;
  const selectType = text(row.select_type);
  const unionResult = table !== null && /^<union[\d,]+>$/.test(table);
  return makeNode({
    table,
    accessType,
    key: text(row.key),
    possibleKeys: possible ? possible.split(',').map((part) => part.trim()) : [],
    keyLength: keyLength === null ? null : toNumber(keyLength.split(',')[0]),
    ref: text(row.ref),
    rowsEstimated: toNumber(row.rows),
    filtered: toNumber(row.filtered),
    ...(selectType !== null ? { selectType } : {}),
    operation: unionResult ? 'Union' : table === null ? 'No table' : 'Table access',
    flags: [...accessFlags(accessType, table), ...flags, ...(unionResult ? (['temporary'] as Flag[]) : [])],
    extra,
  });
}

/** Parse traditional EXPLAIN rows into a plan tree. Never throws. */
export function parseTraditionalRows(rows: readonly TraditionalRow[], flavor?: Flavor): PlanParseResult {
  if (!Array.isArray(rows) || rows.length === 0) {
    return {
      ok: false,
      error: { code: 'PARSE_FAILED', message: 'The EXPLAIN output has no rows.', line: null, column: null },
    };
  }
  const bad = rows.findIndex(
    (row) => row === null || typeof row !== 'object' || !('table' in row || 'type' in row),
  );
  if (bad >= 0) {
    return {
      ok: false,
      error: {
        code: 'PARSE_FAILED',
        message: `Row ${bad + 1} is not an EXPLAIN row (expected columns id, select_type, table, type, …).`,
        line: bad + 1,
        column: null,
      },
    };
  }
  const warnings: string[] = [];
  // Group rows by select id, in order of first appearance.
  const groups = new Map<string, { id: number | null; rows: PlanNode[] }>();
  rows.forEach((row, index) => {
    const id = toNumber(row.id);
    const groupKey = id === null ? `null#${index}` : String(id);
    const node = rowNode(row);
    const unknown = flagsForExtra(text(row.Extra ?? row.extra)).unknown;
    if (unknown.length > 0)
      warnings.push(`Row ${index + 1}: Extra items not mapped to flags: ${unknown.join('; ')}`);
    const group = groups.get(groupKey) ?? { id, rows: [] };
    group.rows.push(node);
    groups.set(groupKey, group);
  });

  // One node per group: a Select node for an id, or the UNION RESULT row itself.
  const groupNodes = new Map<string, PlanNode>();
  for (const [groupKey, group] of groups) {
    if (group.id === null && group.rows.length === 1) {
      groupNodes.set(groupKey, group.rows[0]!);
      continue;
    }
    const first = group.rows[0]!;
    const select = makeNode({
      operation: `Select #${group.id ?? '?'}`,
      ...(first.selectType !== undefined ? { selectType: first.selectType } : {}),
      flags: selectTypeFlags(first.selectType ?? null),
      children: group.rows,
    });
    groupNodes.set(groupKey, select);
  }

  // Attach referenced groups under the row that names them.
  const attached = new Set<string>();
  for (const group of groups.values()) {
    for (const node of group.rows) {
      const match = node.table ? /^<(derived|subquery|union)([\d,]+)>$/.exec(node.table) : null;
      if (!match) continue;
      for (const referenced of match[2]!.split(',')) {
        const child = groupNodes.get(referenced);
        if (child && !attached.has(referenced) && child !== node) {
          node.children.push(child);
          attached.add(referenced);
          if (match[1] !== 'union') addFlags(node, 'materialized');
        }
      }
    }
  }
  const roots = [...groupNodes.entries()]
    .filter(([groupKey]) => !attached.has(groupKey))
    .map(([, node]) => node);
  const root = roots[0]!;
  // Subqueries nobody names (dependent, scalar) belong to the outer query.
  const outer = root.operation.startsWith('Select') ? root : (root.children[0] ?? root);
  for (const other of roots.slice(1)) outer.children.push(other);

  return {
    ok: true,
    report: {
      format: 'traditional',
      // Only MySQL prints the partitions column in plain EXPLAIN; without it the flavor is not knowable.
      flavor: flavor ?? ('partitions' in rows[0]! ? 'mysql' : 'unknown'),
      root: assignIds(root),
      warnings,
    },
  };
}
