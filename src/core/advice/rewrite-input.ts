// The input and output of an exact rewrite (rewrites.ts and the rewrites it delegates to).

import type { Flavor } from '../flavors/capabilities.js';
import type { AstNode } from '../sql/ast.js';
import type { ResolvedColumn } from '../rules/engine.js';
import type { WrappedOperand } from '../sql/wrapping.js';

/** What to replace and with what: the whole comparison (`site`) or only the wrapped operand. */
export interface Rewrite {
  target: 'site' | 'operand';
  replacement: AstNode;
  notes: string[];
  /** False when the rows differ for some data (default true); the notes say where. */
  equivalent?: boolean;
}

/** The inputs of a rewrite: the comparison seen from the wrapped side. */
export interface RewriteInput {
  wrapped: WrappedOperand;
  /** Operator from the wrapped side (`10 < f(c)` is seen as `f(c) > 10`). */
  operator: string;
  /** The other side: a value, or an expr_list for BETWEEN / IN. */
  other: AstNode | null;
  columns: readonly ResolvedColumn[];
  backslashEscapes: boolean;
  /** The statement text of a node (for notes). */
  text: (node: AstNode) => string;
  /** The target's session sql_mode (zero-in-date values decide some date rewrites). */
  sqlMode?: string;
  /** The target's flavor: date arithmetic outside 0001 … 9999 differs (MySQL '0000-00-00', MariaDB NULL). */
  flavor?: Flavor;
}
