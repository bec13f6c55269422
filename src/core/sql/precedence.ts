// AND binds tighter than OR: the server's precedence, restored in every parsed statement.
//
// Design note: node-sql-parser (5.4) builds a chain of AND and OR without parentheses left to right:
// `a = 1 OR b = 2 AND c = 3` comes back as `(a = 1 OR b = 2) AND c = 3` (its issue #1154), while MySQL
// and MariaDB read `a = 1 OR (b = 2 AND c = 3)`. Read as parsed, `c = 3` looks like a conjunct every
// row satisfies: a rule or the index design would reason about rows the query does not return. So
// every mixed chain (AND and OR, no parentheses between them) is flattened into its terms and rebuilt
// with the server's precedence, in place: the chain's top node stays the same object (its parent keeps
// it), with its `loc` and `parentheses`; a rebuilt inner node spans its first to its last term. A
// parenthesised group stays one term. The walk is iterative: a chain of 20,000 ORs must not overflow the
// stack. XOR and `||` are left as parsed (the grammar puts them at another level altogether).

import { isNode, walkChains, type AstNode } from './ast.js';

const AND = /^(AND|&&)$/i;
const OR = /^OR$/i;

function isChainNode(node: unknown): boolean {
  return (
    isNode(node) &&
    node.type === 'binary_expr' &&
    (AND.test(String(node.operator)) || OR.test(String(node.operator)))
  );
}

/** Cheap pre-check on the statement text: both an AND and an OR somewhere (words or &&). */
export function mayMixAndOr(sql: string): boolean {
  return /\bor\b/i.test(sql) && (/\band\b/i.test(sql) || sql.includes('&&'));
}

/** Rebuilds every mixed AND/OR chain of `ast` with AND binding tighter than OR (in place). */
export function associateAndOr(ast: unknown): void {
  walkChains(ast, isChainNode, reassociate);
}

/** An operator between two terms, in the flattening's work list (not an AST node). */
class Operator {
  constructor(readonly operator: string) {}
}

/** Rebuilds the chain under `root` when it mixes AND and OR; returns its terms (to walk into). */
function reassociate(root: AstNode): unknown[] {
  const terms: AstNode[] = [];
  const operators: string[] = [];
  const pending: (AstNode | Operator)[] = [root];
  while (pending.length > 0) {
    const item = pending.pop()!;
    if (item instanceof Operator) {
      operators.push(item.operator);
      continue;
    }
    if (isChainNode(item) && (item === root || !item.parentheses)) {
      pending.push(item.right as AstNode, new Operator(String(item.operator)), item.left as AstNode);
    } else terms.push(item);
  }
  const hasAnd = operators.some((operator) => AND.test(operator));
  const hasOr = operators.some((operator) => OR.test(operator));
  if (!hasAnd || !hasOr || terms.length !== operators.length + 1 || !alreadyWrong(root)) return terms;
  // Groups of AND-ed terms, separated by the ORs.
  const groups: { terms: AstNode[]; operators: string[] }[] = [{ terms: [terms[0]!], operators: [] }];
  const ors: string[] = [];
  operators.forEach((operator, i) => {
    if (OR.test(operator)) {
      ors.push(operator);
      groups.push({ terms: [terms[i + 1]!], operators: [] });
    } else {
      groups.at(-1)!.terms.push(terms[i + 1]!);
      groups.at(-1)!.operators.push(operator);
    }
  });
  const join = (items: AstNode[], ops: string[]): AstNode =>
    items.reduce((left, right, i): AstNode =>
      spanning({ type: 'binary_expr', operator: ops[i - 1]!, left, right }, items[0]!, right),
    );
  const top = join(
    groups.map((group) => join(group.terms, group.operators)),
    ors,
  );
  root.operator = top.operator;
  root.left = top.left;
  root.right = top.right;
  return terms;
}

/**
 * Is the parse's association different from the server's? The grammar's left-to-right chains are: an
 * OR directly under an AND (no parentheses) is never what the server reads. A chain already in the
 * server's shape (AND groups under ORs) is left alone, objects and positions untouched.
 */
function alreadyWrong(root: AstNode): boolean {
  const pending: AstNode[] = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    for (const child of [node.left, node.right] as AstNode[]) {
      if (!isChainNode(child) || child.parentheses) continue;
      if (AND.test(String(node.operator)) && OR.test(String(child.operator))) return true;
      pending.push(child);
    }
  }
  return false;
}

/** A rebuilt node's position: from its first term's start to its last term's end, when both are known. */
function spanning(node: AstNode, first: AstNode, last: AstNode): AstNode {
  const start = isNode(first.loc) ? (first.loc.start as unknown) : undefined;
  const end = isNode(last.loc) ? (last.loc.end as unknown) : undefined;
  if (start && end) node.loc = { start, end };
  return node;
}
