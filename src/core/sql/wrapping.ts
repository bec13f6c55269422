// Classifies how a column is wrapped on the column side of a predicate (shared by several rules).

import { type AstNode, columnRefs, containsAggregate, functionName, isNode } from './ast.js';
import type { PredicateSite } from './predicates.js';

export type WrapKind =
  'function' | 'arithmetic' | 'cast' | 'collate' | 'json' | 'case' | 'coalesce' | 'concat';

/** A wrapped operand: the node that wraps column(s), and what kind of wrapping it is. */
export interface WrappedOperand {
  node: AstNode;
  kind: WrapKind;
  /** Upper-case function name for `function`, `json`, `coalesce`, `concat`; operator for arithmetic. */
  name: string;
}

const ARITHMETIC = new Set(['+', '-', '*', '/', 'DIV', '%', 'MOD']);
const JSON_FUNCTIONS = new Set(['JSON_EXTRACT', 'JSON_UNQUOTE', 'JSON_VALUE']);
const NULL_FUNCTIONS = new Set(['COALESCE', 'IFNULL', 'NVL', 'ISNULL']);
const CONCAT_FUNCTIONS = new Set(['CONCAT', 'CONCAT_WS']);
/** Functions that are not evaluated per row on a column (constant-ish or aggregate). */
const IGNORED = new Set([
  'NOW',
  'CURRENT_TIMESTAMP',
  'CURDATE',
  'CURRENT_DATE',
  'UTC_TIMESTAMP',
  'SYSDATE',
  'RAND',
  'UUID',
]);

/** How `operand` wraps a column, or undefined when it is a bare column, a constant or an aggregate. */
export function classifyWrapping(operand: unknown): WrappedOperand | undefined {
  if (!isNode(operand)) return undefined;
  if (columnRefs(operand).length === 0) return undefined; // constant, parameter or subquery
  if (containsAggregate(operand)) return undefined;
  switch (operand.type) {
    case 'column_ref': {
      const collate = operand.collate as { collate?: { name?: string } } | null | undefined;
      return collate?.collate?.name ? { node: operand, kind: 'collate', name: 'COLLATE' } : undefined;
    }
    case 'function': {
      const name = functionName(operand);
      if (IGNORED.has(name)) return undefined;
      if (JSON_FUNCTIONS.has(name)) return { node: operand, kind: 'json', name };
      if (NULL_FUNCTIONS.has(name)) return { node: operand, kind: 'coalesce', name };
      if (CONCAT_FUNCTIONS.has(name)) return { node: operand, kind: 'concat', name };
      return { node: operand, kind: 'function', name };
    }
    case 'cast':
    case 'convert':
      return { node: operand, kind: 'cast', name: 'CAST' };
    case 'case':
      return { node: operand, kind: 'case', name: 'CASE' };
    case 'unary_expr':
      // `-col = -5`: negation is arithmetic on the column.
      return operand.operator === '-' ? { node: operand, kind: 'arithmetic', name: '-' } : undefined;
    case 'binary_expr': {
      const operator = String(operand.operator).toUpperCase();
      if (operator === '->' || operator === '->>') return { node: operand, kind: 'json', name: operator };
      if (operator === '||') return { node: operand, kind: 'concat', name: '||' };
      if (ARITHMETIC.has(operator)) return { node: operand, kind: 'arithmetic', name: operator };
      return undefined;
    }
    default:
      return undefined;
  }
}

/** The wrapped operands of a site: left and/or right (both for join conditions like `f(a.x) = g(b.y)`). */
export function wrappedOperands(site: PredicateSite): WrappedOperand[] {
  const known = wrappedCache.get(site);
  if (known) return known.slice();
  const result: WrappedOperand[] = [];
  for (const operand of [site.left, site.right]) {
    const wrapped = classifyWrapping(operand);
    if (wrapped) result.push(wrapped);
  }
  wrappedCache.set(site, result);
  return result.slice();
}

/** Several rules classify the same sites: once per site object. */
const wrappedCache = new WeakMap<PredicateSite, WrappedOperand[]>();
