// The AST's types and small typed helpers over node-sql-parser's JSON AST (which has no useful static types).
// A leaf: imports nothing, so parse.ts and the pre-parse passes it runs (condition-runs, literal-lists,
// tolerant) can all name AstNode without importing each other.

/** node-sql-parser's AST is untyped JSON for our purposes; rules read it through the helpers below. */
export type AstNode = Record<string, unknown>;

/** A source range inside one statement (0-based offsets, end exclusive). */
export interface Span {
  start: number;
  end: number;
}

export function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Walks every node of an AST without recursion (a chain of 20,000 ORs is 20,000 levels deep). A node
 * `chain` accepts is handed to `visit`, which returns the nodes to walk on from it (its chain's terms)
 * instead of its own children; `loc` is never walked. Each node is visited once.
 */
export function walkChains(
  ast: unknown,
  chain: (node: AstNode) => boolean,
  visit: (node: AstNode) => unknown[],
): void {
  const stack: unknown[] = [ast];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const item of value) if (item && typeof item === 'object') stack.push(item);
      continue;
    }
    if (!isNode(value) || seen.has(value)) continue;
    seen.add(value);
    if (chain(value)) {
      for (const next of visit(value)) stack.push(next);
      continue;
    }
    for (const key in value) {
      if (key === 'loc') continue;
      const child = value[key];
      if (child && typeof child === 'object') stack.push(child);
    }
  }
}

export function nodeType(node: unknown): string | undefined {
  return isNode(node) && typeof node.type === 'string' ? node.type : undefined;
}

/** The node's span in the statement text, when the parser recorded one. */
export function spanOf(node: unknown): Span | undefined {
  if (!isNode(node) || !isNode(node.loc)) return undefined;
  const start = (node.loc.start as { offset?: number } | undefined)?.offset;
  const end = (node.loc.end as { offset?: number } | undefined)?.offset;
  return typeof start === 'number' && typeof end === 'number' ? { start, end } : undefined;
}

/** Upper-case function name of a `function` node (`MONTH`, `JSON_EXTRACT`). */
export function functionName(node: AstNode): string {
  const name = node.name as { name?: { value?: string }[] } | string | undefined;
  if (typeof name === 'string') return name.toUpperCase();
  const parts = name?.name?.map((part) => part.value ?? '') ?? [];
  return parts.join('.').toUpperCase();
}

/** Arguments of a function call. */
export function functionArgs(node: AstNode): AstNode[] {
  const args = node.args as { value?: unknown } | undefined;
  const value = args?.value;
  if (Array.isArray(value)) return value.filter(isNode);
  return isNode(value) ? [value] : [];
}

/** A column reference: optional table qualifier and the column name. */
export interface ColumnRef {
  node: AstNode;
  table: string | null;
  column: string;
}

/** Column name of a column_ref node (node-sql-parser nests it in `expr` for some shapes). */
export function columnName(node: AstNode): string | undefined {
  const column = node.column as unknown;
  if (typeof column === 'string') return column;
  if (isNode(column)) {
    const expr = column.expr as { value?: unknown } | undefined;
    if (typeof expr?.value === 'string') return expr.value;
    if (typeof column.value === 'string') return column.value;
  }
  return undefined;
}

/** True for a SELECT (or set operation) AST embedded in an expression: `{ ast: {...} }` or type 'select'. */
export function embeddedSelect(node: AstNode): AstNode | undefined {
  if (isNode(node.ast) && typeof node.ast.type === 'string') return node.ast;
  return undefined;
}

/**
 * Column references inside an expression, not descending into subqueries (they have their own scope).
 */
export function columnRefs(expression: unknown): ColumnRef[] {
  // Rules ask for the same expressions' columns many times (every rule classifies every operand):
  // computed once per AST object; callers get their own copy of the list.
  if (!isNode(expression) && !Array.isArray(expression)) return [];
  const key = expression as object;
  const known = columnRefsCache.get(key);
  if (known) return known.slice();
  const found = collectColumnRefs(expression);
  columnRefsCache.set(key, found);
  return found.slice();
}

const columnRefsCache = new WeakMap<object, ColumnRef[]>();

function collectColumnRefs(expression: unknown): ColumnRef[] {
  const found: ColumnRef[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (!isNode(value)) return;
    if (embeddedSelect(value) || value.type === 'select') return;
    if (value.type === 'column_ref') {
      const column = columnName(value);
      if (column && column !== '*')
        found.push({ node: value, table: typeof value.table === 'string' ? value.table : null, column });
      return;
    }
    for (const key in value) {
      if (key === 'loc') continue;
      visit(value[key]);
    }
  };
  visit(expression);
  return found;
}

/** True when the expression contains an aggregate function call. */
export function containsAggregate(expression: unknown): boolean {
  let found = false;
  const visit = (value: unknown): void => {
    if (found) return;
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isNode(value) || embeddedSelect(value)) return;
    if (value.type === 'aggr_func') {
      found = true;
      return;
    }
    for (const key in value) if (key !== 'loc') visit(value[key]);
  };
  visit(expression);
  return found;
}
