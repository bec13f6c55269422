// The shapes of a per-query index design (design.ts builds them; design-table.ts fills one per table).
// A leaf: the design modules all name these types, so they live apart from the code that imports them.

import type { AstNode } from '../sql/ast.js';
import type { ColumnPredicate } from './access.js';

/** Why a key part is there. */
export type PartRole = 'equality' | 'join' | 'in' | 'range' | 'sort' | 'group' | 'cover';

export interface DesignedPart {
  /** Column name (schema spelling); absent for an expression. */
  column?: string;
  /** Expression key part (MySQL >= 8.0.13 functional key part), without the outer parentheses. */
  expression?: string;
  prefixLength?: number;
  desc?: boolean;
  role: PartRole;
  /**
   * The column is a VIRTUAL generated column the index's DDL adds (no functional key parts on the
   * target: MariaDB, MySQL < 8.0.13): its expression and its definition after the name.
   */
  generated?: { expression: string; definition: string };
}

/** A generated column the design keys on instead of an expression (generated-columns.ts). */
export interface GeneratedColumnUse {
  table: string;
  name: string;
  /** The expression as the query writes it. */
  expression: string;
  /** `TYPE GENERATED ALWAYS AS (expression) VIRTUAL`; absent for a column the table already has. */
  definition?: string;
  /** The table already has the column (its stored expression matches). */
  existing: boolean;
}

/** The design for one table of the query. */
export interface TableIndexPlan {
  table: string;
  /** The name the query uses for it (alias), when different. */
  alias: string | null;
  /** `only`: single-table query; `driving`: read first in the join; `inner`: looked up per row of the tables before it. */
  role: 'only' | 'driving' | 'inner';
  /**
   * `create`: a new index; `extend`: an existing index is a left prefix of the design and is replaced by
   * it; `served`: an existing index already seeks (and sorts) as the design would; `none`: nothing of
   * this table can use an index in this query.
   */
  verdict: 'create' | 'extend' | 'served' | 'none';
  parts: DesignedPart[];
  indexName: string | null;
  /** Runnable statements (empty unless create/extend). */
  ddl: string[];
  /** The existing index that serves the query (served) or is extended (extend). */
  existingIndex: string | null;
  /** The index holds every column the query reads from the table. */
  covering: boolean;
  /** ORDER BY / GROUP BY is read in index order (no filesort / temporary for it). */
  sortFromIndex: boolean;
  /** Sum of the key parts' lengths in bytes (InnoDB's count), when every part's type is known. */
  keyBytes: number | null;
  /** Why this column order, what it serves, what was left out. */
  notes: string[];
  /**
   * Where the table is read when it is not the main query block's plain access: `OR branch 1 of 2:
   * a = 1` (one index per branch of an OR across columns). Absent for the main block.
   */
  scope?: string;
}

/** ORs across columns, split into one SELECT per branch (per combination of branches) (or-branches.ts). */
export interface OrRewrite {
  /** The first split OR's table. */
  table: string;
  /** The first split OR's branches as written. */
  branches: string[];
  /** Every split OR (the first is `table` / `branches`): the rewrite has one SELECT per combination of their branches. */
  splits: { table: string; branches: string[] }[];
  /** The statement as a UNION ALL (UNION for DISTINCT) of one SELECT per branch; null when it cannot be rewritten. */
  sql: string | null;
  /** The rewrite returns the same rows as the original (as a multiset) on every data set. */
  equivalent: boolean;
  /** Why it is (not) equivalent, or why there is no rewrite. */
  why: string;
}

export interface QueryIndexPlan {
  /**
   * One entry per base table of the main query block that the schema knows, then the tables of the
   * other blocks (UNION branches, derived tables, CTEs, subqueries), each with its `scope`.
   */
  tables: TableIndexPlan[];
  /** The table the join starts from (joins only). */
  drivingTable: string | null;
  notes: string[];
  /** An OR across columns designed as one index per branch: the UNION ALL rewrite that uses them. */
  orRewrite?: OrRewrite;
  /** Generated columns the design keys on in place of function-wrapped predicates (no functional key parts). */
  generatedColumns?: GeneratedColumnUse[];
  /** The statement naming the generated columns instead of their expressions. */
  rewrittenSql?: string;
  /** The server uses the index only for `rewrittenSql` (it does not substitute the expression): the query must change. */
  queryMustChange?: boolean;
}

export interface DesignOptions {
  /** Distinct values of a column (from statistics), to order equality columns by selectivity. */
  distinct?: (table: string, column: string) => number | undefined;
  /** Largest number of extra columns appended to make an index covering (default 3). */
  maxCoverColumns?: number;
  /** Internal: do not split an OR into branches (a branch's own design). */
  withoutOrBranches?: boolean;
  /** Internal: design this block only, not the blocks nested in it (they are designed from the top). */
  blockOnly?: boolean;
  /**
   * Names of generated columns already chosen, by `table|canonical expression`: a workload passes one map
   * to every statement so one expression gets one column (and two expressions never one name).
   */
  generatedNames?: Map<string, string>;
  /** Internal: design without generated columns (the rewritten statement's own design). */
  withoutGenerated?: boolean;
  /** Internal: `x IN (SELECT c …)`: the subquery's column `c`, an equality looked up per outer row. */
  inColumn?: AstNode;
}

/** A key part being placed, with the predicate it came from (none for a join column). */
export interface Candidate {
  part: DesignedPart;
  predicate?: ColumnPredicate;
}
