// The shapes of a per-query index design (design.ts builds them; design-table.ts fills one per table).
// A leaf: the design modules all name these types, so they live apart from the code that imports them.

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
}

export interface QueryIndexPlan {
  /** One entry per base table of the main query block that the schema knows. */
  tables: TableIndexPlan[];
  /** The table the join starts from (joins only). */
  drivingTable: string | null;
  notes: string[];
}

export interface DesignOptions {
  /** Distinct values of a column (from statistics), to order equality columns by selectivity. */
  distinct?: (table: string, column: string) => number | undefined;
  /** Largest number of extra columns appended to make an index covering (default 3). */
  maxCoverColumns?: number;
}

/** A key part being placed, with the predicate it came from (none for a join column). */
export interface Candidate {
  part: DesignedPart;
  predicate?: ColumnPredicate;
}
