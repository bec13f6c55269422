// WHERE / ON conditions as the server reads them: AND binds tighter than OR.
//
// Design note: node-sql-parser (5.4) builds a chain of AND and OR without parentheses left to right:
// `a = 1 OR b = 2 AND c = 3` comes back as `(a = 1 OR b = 2) AND c = 3` (its issue #1154), while MySQL
// and MariaDB read `a = 1 OR (b = 2 AND c = 3)`. Read as parsed, `c = 3` would look like a conjunct that
// every row satisfies, and an index would be designed on it. So before the design reads a condition, a
// mixed chain (an AND node with an unparenthesised OR child) is flattened into its terms and rebuilt
// with the server's precedence. A parenthesised group stays one term. Text is cut from the statement
// by innerSpan/termSpan, which take an AND/OR node's span from its first and last terms (parentheses
// around a term included). Chains with XOR are left as parsed.

import { isNode, spanOf, type AstNode, type Span } from '../sql/ast.js';

const AND = /^(AND|&&)$/i;
const OR = /^(OR|\|\|)$/i;

function isBoolean(node: unknown, pattern: RegExp): node is AstNode {
  return isNode(node) && node.type === 'binary_expr' && pattern.test(String(node.operator));
}

/** The condition with AND binding tighter than OR (the same object when the parse already reads so). */
export function conditionTree(condition: unknown): AstNode | undefined {
  if (!isNode(condition)) return undefined;
  if (!misassociated(condition)) return condition;
  const terms: AstNode[] = [];
  const operators: ('AND' | 'OR')[] = [];
  let xor = false;
  const flatten = (node: AstNode, top: boolean): void => {
    const chain = (top || !node.parentheses) && (isBoolean(node, AND) || isBoolean(node, OR));
    if (!chain) {
      if (node.type === 'binary_expr' && /^XOR$/i.test(String(node.operator)) && !node.parentheses)
        xor = true;
      terms.push(node);
      return;
    }
    flatten(node.left as AstNode, false);
    operators.push(isBoolean(node, AND) ? 'AND' : 'OR');
    flatten(node.right as AstNode, false);
  };
  flatten(condition, true);
  if (xor || terms.some((term) => !isNode(term))) return condition;
  const groups: AstNode[][] = [[terms[0]!]];
  operators.forEach((operator, i) => {
    if (operator === 'OR') groups.push([terms[i + 1]!]);
    else groups.at(-1)!.push(terms[i + 1]!);
  });
  const join = (operator: 'AND' | 'OR', items: AstNode[]): AstNode =>
    items.reduce((left, right): AstNode => ({ type: 'binary_expr', operator, left, right }));
  const tree = join(
    'OR',
    groups.map((group) => join('AND', group)),
  );
  if (condition.parentheses) tree.parentheses = true;
  return tree;
}

/** A chain the grammar built left to right across AND and OR without parentheses. */
function misassociated(node: AstNode): boolean {
  if (!isBoolean(node, AND) && !isBoolean(node, OR)) return false;
  const mine = isBoolean(node, AND) ? AND : OR;
  const other = mine === AND ? OR : AND;
  for (const child of [node.left, node.right]) {
    if (!isNode(child) || child.parentheses) continue;
    // An OR under an AND is always the grammar's association; an AND under an OR is correct (AND binds
    // tighter) unless it holds an OR itself.
    if (mine === AND && isBoolean(child, other)) return true;
    if (misassociated(child)) return true;
  }
  return false;
}

/**
 * The span of a condition's text without parentheses around it. An AND/OR node's own `loc` is not used:
 * the condition-runs pass gives every AND/OR node of a chain the whole chain's span, so it is taken from
 * the first and last terms.
 */
export function innerSpan(node: AstNode, sql: string): Span | undefined {
  if (isBoolean(node, AND) || isBoolean(node, OR)) {
    const left = isNode(node.left) ? termSpan(node.left, sql) : undefined;
    const right = isNode(node.right) ? termSpan(node.right, sql) : undefined;
    return left && right ? { start: left.start, end: right.end } : undefined;
  }
  const span = spanOf(node);
  if (!span) return undefined;
  return { start: span.start, end: span.start + sql.slice(span.start, span.end).trimEnd().length };
}

/** The span of a term in the statement, with the parentheses around it when it has them. */
export function termSpan(node: AstNode, sql: string): Span | undefined {
  const span = innerSpan(node, sql);
  if (!span || !node.parentheses) return span;
  let before = span.start - 1;
  while (before >= 0 && /\s/.test(sql[before]!)) before--;
  let after = span.end;
  while (after < sql.length && /\s/.test(sql[after]!)) after++;
  return sql[before] === '(' && sql[after] === ')' ? { start: before, end: after + 1 } : span;
}
