// Parser for MySQL EXPLAIN FORMAT=TREE and EXPLAIN ANALYZE text (the iterator tree).
//
// Design note: every node is one line `<indent>-> <description>  (cost=A..B rows=R) (actual time=T1..T2 rows=R
// loops=L)`, children indented 4 spaces deeper than their parent. The parser keeps a stack of (indent, node)
// and pops until the top is shallower than the new line. The estimate and actual parentheses are parsed from
// the end of the line (descriptions themselves contain parentheses, e.g. conditions), and "(never executed)"
// marks a node ANALYZE skipped. The description is classified with a small table of prefixes into access
// type, table, key, condition and flags ("Index range scan on t using k over (…)" → range on t via k); the
// full description always stays in `extra.description`. A subquery prints as its own top-level line
// ("-> Select #2 (subquery in projection; dependent)"): later top-level lines are hung under the first one.
// Times: MySQL prints per-loop averages; `timeMs` is the time to the last row times loops (total), `rowsActual`
// stays per loop as printed.

import {
  addFlags,
  assignIds,
  makeNode,
  round,
  type Flag,
  type PlanNode,
  type PlanParseResult,
} from './plan.js';

interface Classified {
  operation: string;
  table?: string;
  accessType?: string;
  key?: string;
  condition?: string;
  ref?: string;
  flags: Flag[];
}

const number = String.raw`[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?`;
const estimateRe = new RegExp(String.raw`\s*\(cost=(${number})(?:\.\.(${number}))? rows=(${number})\)`, 'i');
const actualRe = new RegExp(
  String.raw`\s*\(actual time=(${number})\.\.(${number}) rows=(${number}) loops=(${number})\)\s*$`,
  'i',
);
const neverRe = /\s*\(never executed\)\s*$/;

/** Split "table using key" / conditions out of an access line. */
function accessLine(rest: string): { table: string; key?: string; tail: string } {
  // Internal tables print with spaces ("<union temporary>"), so a leading "<…>" is one name.
  const match = /^(<[^>]*>|\S+)(?: using (\S+))?(.*)$/.exec(rest);
  if (!match) return { table: rest, tail: '' };
  return { table: match[1]!, ...(match[2] !== undefined ? { key: match[2] } : {}), tail: match[3] ?? '' };
}

/** Pull ", with index condition: (…)" out of an access tail. */
function indexCondition(tail: string): string | undefined {
  const match = /, with index condition: (.*)$/.exec(tail);
  return match ? match[1] : undefined;
}

/** Classify one description into the model's fields. */
export function classifyTreeDescription(description: string): Classified {
  const d = description;
  const access: Array<[RegExp, string, string, Flag[]]> = [
    [/^Table scan on (.*)$/, 'Table scan', 'ALL', ['full-scan']],
    [
      /^Covering index skip scan(?: for grouping| for deduplication)? on (.*)$/,
      'Index skip scan',
      'range',
      ['covering-index'],
    ],
    [/^Index skip scan on (.*)$/, 'Index skip scan', 'range', []],
    [/^Covering index range scan on (.*)$/, 'Index range scan', 'range', ['covering-index']],
    [/^Index range scan on (.*)$/, 'Index range scan', 'range', []],
    [/^Covering index scan on (.*)$/, 'Index scan', 'index', ['full-index-scan', 'covering-index']],
    [/^Index scan on (.*)$/, 'Index scan', 'index', ['full-index-scan']],
    [/^Single-row covering index lookup on (.*)$/, 'Single-row index lookup', 'eq_ref', ['covering-index']],
    [/^Single-row index lookup on (.*)$/, 'Single-row index lookup', 'eq_ref', []],
    [/^Covering index lookup on (.*)$/, 'Index lookup', 'ref', ['covering-index']],
    [/^Index lookup on (.*)$/, 'Index lookup', 'ref', []],
    [/^Full-text index search on (.*)$/, 'Full-text index search', 'fulltext', []],
    [/^Constant row from (.*)$/, 'Constant row', 'const', []],
    [/^Index range scan \(Multi-Range Read\) on (.*)$/, 'Index range scan', 'range', ['mrr']],
  ];
  for (const [re, operation, accessType, flags] of access) {
    const match = re.exec(d);
    if (!match) continue;
    const { table, key, tail } = accessLine(match[1]!);
    const result: Classified = { operation, table, accessType, flags: [...flags] };
    if (key !== undefined) result.key = key;
    if (accessType === 'ref' && / or NULL\)/.test(tail)) result.accessType = 'ref_or_null';
    const lookup = /^ \((.*?)\)(?:,|$| \(reverse\))/.exec(tail);
    if (lookup && (accessType === 'ref' || accessType === 'eq_ref' || accessType === 'fulltext')) {
      // "(customer_id=c.id, status='x')" → ref "c.id, 'x'" (the traditional column prints const for literals).
      result.ref = lookup[1]!
        .split(/,\s*/)
        .map((part) => part.replace(/^[^=]*=/, '').replace(/ or NULL$/, ''))
        .join(', ');
    }
    if (/ \(reverse\)/.test(tail)) result.flags.push('backward-index-scan');
    const condition = indexCondition(tail);
    if (condition !== undefined) {
      result.condition = condition;
      result.flags.push('index-condition');
    }
    // Scans of internal temporary tables are not full scans of user data.
    if (table.startsWith('<')) {
      result.flags = result.flags.filter((flag) => flag !== 'full-scan' && flag !== 'full-index-scan');
      if (/temporary>$/.test(table)) result.flags.push('temporary');
    }
    return result;
  }
  const colon =
    /^(Filter|Sort|Limit|Limit\/Offset|Aggregate|Group aggregate|Window aggregate|Group \(no aggregates\)|Sort row IDs|Hash semijoin|Window aggregate with buffering|Remove duplicates from input sorted on|Remove duplicates from input grouped on|Deduplicate): ?(.*)$/.exec(
      d,
    );
  if (colon) {
    const operation = colon[1]!;
    const flags: Flag[] = [];
    if (operation === 'Filter') flags.push('using-where');
    if (operation === 'Sort') flags.push('filesort');
    // Only a Filter's text is a condition; sort keys, limits and aggregates stay in extra.description.
    return { operation, ...(operation === 'Filter' ? { condition: colon[2]! } : {}), flags };
  }
  const join =
    /^((?:Inner|Left|Right|Outer|Anti|Semi|Left anti|Left semi|Full) hash (?:join|semijoin|antijoin))\s*(.*)$/i.exec(
      d,
    );
  if (join) {
    const condition = join[2]!.trim();
    return { operation: join[1]!, ...(condition ? { condition } : {}), flags: ['join-buffer', 'hash-join'] };
  }
  const select = /^Select #(\d+) \((.*)\)$/.exec(d);
  if (select) {
    const flags: Flag[] = [];
    if (/dependent/.test(select[2]!)) flags.push('dependent-subquery');
    return { operation: `Subquery #${select[1]!}`, flags };
  }
  if (/^Zero rows \(Impossible (WHERE|HAVING)\)/.test(d))
    return { operation: 'Zero rows', flags: ['impossible-where'] };
  if (/^Zero rows \(no matching row in const table\)/.test(d))
    return { operation: 'Zero rows', flags: ['no-matching-row'] };
  if (/^Zero rows/.test(d)) return { operation: 'Zero rows', flags: [] };
  if (/^Rows fetched before execution/.test(d))
    return { operation: 'Rows fetched before execution', flags: ['optimized-away'] };
  if (/^Union materialize/.test(d)) return { operation: 'Union', flags: ['materialized', 'temporary'] };
  if (/^Materialize/.test(d)) return { operation: 'Materialize', flags: ['materialized'] };
  if (/^(Temporary table|Aggregate using temporary table|Stream results|Append)/.test(d)) {
    if (d.startsWith('Append')) return { operation: 'Union', flags: [] };
    return { operation: d, flags: d.includes('emporary table') ? ['temporary'] : [] };
  }
  if (/^Nested loop/.test(d)) return { operation: d, flags: [] };
  if (
    /^Sort-deduplicate by row ID|^Deduplicate rows sorted by row ID|^Intersect rows sorted by row ID/.test(d)
  ) {
    return { operation: d, flags: ['index-merge'] };
  }
  return { operation: d.replace(/:.*$/, ''), flags: [] };
}

/** Parse FORMAT=TREE or EXPLAIN ANALYZE text into a plan tree. Never throws. */
export function parseTreeText(text: string): PlanParseResult {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const firstContent = lines.findIndex((line) => line.trim() !== '');
  const first = firstContent >= 0 ? lines[firstContent]!.trim() : '';
  if (!first.startsWith('->')) {
    const unsupported = /^<.*>$/.test(first);
    return {
      ok: false,
      error: {
        code: unsupported ? 'UNSUPPORTED' : 'PARSE_FAILED',
        message: unsupported
          ? `MySQL printed ${first} for this statement: it has no tree plan. Use FORMAT=JSON or traditional EXPLAIN.`
          : 'This text is not EXPLAIN FORMAT=TREE output (lines start with "->").',
        line: firstContent >= 0 ? firstContent + 1 : 1,
        column: 1,
      },
    };
  }
  const roots: PlanNode[] = [];
  const stack: Array<{ indent: number; node: PlanNode }> = [];
  let analyzed = false;
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!;
    if (raw.trim() === '') continue;
    const match = /^(\s*)-> (.*)$/.exec(raw);
    if (!match) {
      // A wrapped continuation of the previous line (long conditions can contain newlines).
      const top = stack[stack.length - 1];
      if (top) {
        top.node.extra.description = `${String(top.node.extra.description)}\n${raw}`;
        continue;
      }
      return {
        ok: false,
        error: {
          code: 'PARSE_FAILED',
          message: `Line ${index + 1} does not start with "->".`,
          line: index + 1,
          column: 1,
        },
      };
    }
    const indent = match[1]!.length;
    let body = match[2]!.trimEnd();
    let actual: RegExpExecArray | null = null;
    let never = false;
    if (neverRe.test(body)) {
      never = true;
      analyzed = true;
      body = body.replace(neverRe, '');
    } else if ((actual = actualRe.exec(body))) {
      analyzed = true;
      body = body.slice(0, actual.index);
    }
    const estimate = estimateRe.exec(body);
    let description = body;
    if (estimate && estimate.index + estimate[0].length === body.length)
      description = body.slice(0, estimate.index);
    description = description.trim();
    const classified = classifyTreeDescription(description);
    const costTotal = estimate ? Number(estimate[2] ?? estimate[1]) : null;
    const node = makeNode({
      table: classified.table ?? null,
      accessType: classified.accessType ?? null,
      key: classified.key ?? null,
      ref: classified.ref ?? null,
      rowsEstimated: estimate ? Number(estimate[3]) : null,
      rowsActual: actual ? Number(actual[3]) : never ? 0 : null,
      loops: actual ? Number(actual[4]) : never ? 0 : null,
      timeMs: actual ? round(Number(actual[2]) * Number(actual[4])) : never ? 0 : null,
      cost: costTotal,
      condition: classified.condition ?? null,
      operation: classified.operation,
      flags: [...classified.flags, ...(never ? (['never-executed'] as Flag[]) : [])],
      extra: { description },
    });
    if (estimate && estimate[2] !== undefined) node.extra.startupCost = Number(estimate[1]);
    if (actual) node.extra.firstRowMs = Number(actual[1]);
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) parent.node.children.push(node);
    else roots.push(node);
    stack.push({ indent, node });
  }
  let root: PlanNode;
  if (roots.length === 1) root = roots[0]!;
  else {
    // The main plan first, then "Select #N" subqueries printed at top level: hang those under the main plan.
    root = roots[0]!;
    for (const other of roots.slice(1)) root.children.push(other);
  }
  markMaterializedScans(root);
  addFlags(root);
  return {
    ok: true,
    report: { format: analyzed ? 'analyze' : 'tree', flavor: 'mysql', root: assignIds(root), warnings: [] },
  };
}

/** A scan of a table whose child materializes it (CTE, derived table) reads a temporary result, not user data. */
function markMaterializedScans(node: PlanNode): void {
  for (const child of node.children) markMaterializedScans(child);
  if (node.table !== null && node.children.some((child) => child.flags.includes('materialized'))) {
    node.flags = node.flags.filter((flag) => flag !== 'full-scan' && flag !== 'full-index-scan');
    addFlags(node, 'materialized');
  }
}
