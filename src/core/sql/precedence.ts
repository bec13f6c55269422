// AND binds tighter than OR, and XOR and `||` (as OR) bind looser than comparisons: the server's precedence,
// restored in every parsed statement.
//
// Design note: node-sql-parser (5.4) builds a chain of AND and OR without parentheses left to right:
// `a = 1 OR b = 2 AND c = 3` comes back as `(a = 1 OR b = 2) AND c = 3` (its issue #1154), while MySQL
// and MariaDB read `a = 1 OR (b = 2 AND c = 3)`. Read as parsed, `c = 3` looks like a conjunct every
// row satisfies: a rule or the index design would reason about rows the query does not return. So
// every mixed chain (AND and OR, no parentheses between them) is flattened into its terms and rebuilt
// with the server's precedence, in place: the chain's top node stays the same object (its parent keeps
// it), with its `loc` and `parentheses`; a rebuilt inner node spans its first to its last term. A
// parenthesised group stays one term. The walk is iterative: a chain of 20,000 ORs must not overflow the
// stack.
//
// XOR and `||`: the grammar reads them at the level of `*` (`a = 1 XOR b = 2` comes back as
// `(a = (1 XOR b)) = 2`, `a = 1 AND b = 2 XOR c` as `(a = 1 AND b = 2) XOR c` is right by luck but
// `a XOR b AND c` as `(a XOR b) AND c` is not). MySQL and MariaDB: comparisons > NOT > AND > XOR > OR, and
// `||` is OR unless PIPES_AS_CONCAT (then it concatenates, near the grammar's level, and stays as parsed).
// An expression holding one of them is flattened into its terms, binary operators and prefix NOTs in
// text order (the grammar's infix nodes without parentheses keep that order) and rebuilt with the
// servers' precedence, every operator node reused (a LIKE keeps its ESCAPE), each spanning its first to
// its last term; the top object stays the parent's. Operators the table below does not know end the
// flattening (their node is a term), so nothing is rebuilt on a guess.

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

/** Binding strength (higher binds tighter), MySQL 8.0 / MariaDB 10.11 "Operator Precedence". */
const LEVEL: Record<string, number> = {
  OR: 1,
  '||': 1,
  XOR: 2,
  AND: 3,
  '&&': 3,
  ...Object.fromEntries(
    [
      '=',
      '<=>',
      '>=',
      '>',
      '<=',
      '<',
      '<>',
      '!=',
      'IS',
      'IS NOT',
      'LIKE',
      'NOT LIKE',
      'REGEXP',
      'NOT REGEXP',
      'RLIKE',
      'NOT RLIKE',
      'IN',
      'NOT IN',
      'BETWEEN',
      'NOT BETWEEN',
    ].map((operator) => [operator, 5]),
  ),
  '|': 6,
  '&': 7,
  '<<': 8,
  '>>': 8,
  '+': 9,
  '-': 9,
  '*': 10,
  '/': 10,
  DIV: 10,
  '%': 10,
  MOD: 10,
  '^': 11,
};
const NOT_LEVEL = 4;

const levelOf = (node: AstNode): number | undefined =>
  node.type === 'binary_expr' ? LEVEL[String(node.operator).toUpperCase()] : undefined;
const isPrefixNot = (node: AstNode): boolean =>
  node.type === 'unary_expr' && /^NOT$/i.test(String(node.operator));

/** Cheap pre-check: an XOR or a `||` somewhere in the text. */
export function mayHaveXor(sql: string): boolean {
  return /\bxor\b/i.test(sql) || sql.includes('||');
}

/**
 * Rebuilds every expression holding XOR (or `||` as OR, when `pipesAsConcat` is false) with the servers'
 * precedence (in place). Run before {@link associateAndOr}: the AND/OR chains it leaves are in the
 * servers' shape already.
 */
export function associateXor(ast: unknown, options: { pipesAsConcat: boolean }): void {
  const loose = (node: AstNode) => {
    const operator = String(node.operator).toUpperCase();
    return (
      node.type === 'binary_expr' && (operator === 'XOR' || (operator === '||' && !options.pipesAsConcat))
    );
  };
  walkChains(
    ast,
    (node) => levelOf(node) !== undefined || isPrefixNot(node),
    (root) => rebuild(root, loose, options.pipesAsConcat),
  );
}

class Binary {
  constructor(readonly node: AstNode) {}
}
class Prefix {
  constructor(readonly node: AstNode) {}
}

/** Flattens the expression under `root`; rebuilds it when it holds a loose operator. Returns its terms. */
function rebuild(root: AstNode, loose: (node: AstNode) => boolean, pipesAsConcat: boolean): unknown[] {
  const items: (AstNode | Binary | Prefix)[] = [];
  const pending: (AstNode | Binary)[] = [root];
  let hasLoose = false;
  const level = (node: AstNode) =>
    pipesAsConcat && String(node.operator) === '||' ? undefined : levelOf(node);
  while (pending.length > 0) {
    const item = pending.pop()!;
    if (item instanceof Binary) {
      items.push(item);
      continue;
    }
    const inside = item === root || !item.parentheses;
    if (inside && level(item) !== undefined) {
      if (loose(item)) hasLoose = true;
      const copy = item === root ? { ...item } : item;
      pending.push(item.right as AstNode, new Binary(copy), item.left as AstNode);
    } else if (inside && isPrefixNot(item) && isNode(item.expr)) {
      items.push(new Prefix(item === root ? { ...item } : item));
      pending.push(item.expr);
    } else items.push(item);
  }
  const terms = items.filter(
    (item): item is AstNode => !(item instanceof Binary) && !(item instanceof Prefix),
  );
  if (!hasLoose) return terms;
  // Shunting-yard: every operator left-associative, a prefix NOT binding looser than comparisons.
  const output: AstNode[] = [];
  const operators: (Binary | Prefix)[] = [];
  const strength = (item: Binary | Prefix) => (item instanceof Prefix ? NOT_LEVEL : level(item.node)!);
  const reduce = () => {
    const item = operators.pop()!;
    if (item instanceof Prefix) {
      const operand = output.pop()!;
      item.node.expr = operand;
      output.push(spanningFrom(item.node, item.node, operand));
    } else {
      const right = output.pop()!;
      const left = output.pop()!;
      item.node.left = left;
      item.node.right = right;
      output.push(spanningFrom(item.node, left, right));
    }
  };
  for (const item of items) {
    if (item instanceof Prefix) operators.push(item);
    else if (item instanceof Binary) {
      while (operators.length > 0 && strength(operators.at(-1)!) >= strength(item)) reduce();
      operators.push(item);
    } else output.push(item);
  }
  while (operators.length > 0) reduce();
  if (output.length !== 1) return terms;
  const top = output[0]!;
  const { parentheses, loc } = root;
  for (const key of Object.keys(root)) delete root[key];
  Object.assign(root, top, { loc });
  if (parentheses !== undefined) root.parentheses = parentheses;
  return terms;
}

/** A rebuilt node's position: from `first`'s start (a NOT keyword: its own) to `last`'s end. */
function spanningFrom(node: AstNode, first: AstNode, last: AstNode): AstNode {
  const start = isNode(first.loc) ? (first.loc.start as unknown) : undefined;
  const end = isNode(last.loc) ? (last.loc.end as unknown) : undefined;
  if (start && end) node.loc = { start, end };
  return node;
}
