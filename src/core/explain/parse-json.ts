// Parser for EXPLAIN FORMAT=JSON documents: MySQL's shape and MariaDB's shape (and MariaDB ANALYZE FORMAT=JSON).
//
// Design note: both servers print a tree of "blocks" (`query_block`, sort/group/temporary wrappers, join lists)
// whose leaves are `table` objects, but they name things differently:
//   MySQL:   ordering_operation, grouping_operation, duplicates_removal, windowing, buffer_result, nested_loop,
//            union_result{query_specifications}, *_subqueries[{dependent, cacheable, query_block}],
//            table{materialized_from_subquery, cost_info, rows_examined_per_scan}.
//   MariaDB: filesort, temporary_table, read_sorted_file, window_functions_computation, nested_loop of
//            {table} | {block-nl-join}, union_result{query_specifications}, subqueries[{query_block} |
//            {expression_cache}], table{materialized, rows, r_rows, r_loops, r_*_time_ms}.
// One walker handles both: it visits an object's keys in order, turns known structural keys into child
// nodes, maps known scalar keys onto node fields, and copies every remaining key verbatim into `extra`.
// A remaining key whose value still holds a plan (`query_block`, `table` or `nested_loop` somewhere
// inside) becomes a generic child node named after the key, so an unknown wrapper never hides tables.

import type { Flavor } from '../flavors/capabilities.js';
import { flagsForExtraItem } from './parse-traditional.js';
import {
  accessFlags,
  addFlags,
  assignIds,
  makeNode,
  round,
  toNumber,
  type Flag,
  type PlanNode,
  type PlanParseResult,
} from './plan.js';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Tracks which keys of a source object were used, so the rest can go to `extra` untouched (never mutates input). */
class Fields {
  private readonly taken = new Set<string>();
  private readonly replaced = new Map<string, unknown>();
  constructor(readonly source: JsonObject) {}
  /** Consume a key: its value is mapped onto the node and will not appear in `extra`. */
  take(key: string): unknown {
    if (!(key in this.source)) return undefined;
    this.taken.add(key);
    return this.source[key];
  }
  /** Read a key without consuming it (it stays in `extra`). */
  peek(key: string): unknown {
    return this.source[key];
  }
  /** Consume a key but keep a reduced value of it in `extra` (e.g. cost_info without the mapped cost). */
  replace(key: string, value: unknown): void {
    this.taken.add(key);
    this.replaced.set(key, value);
  }
  has(key: string): boolean {
    return key in this.source && !this.taken.has(key);
  }
  keys(): string[] {
    return Object.keys(this.source).filter((key) => !this.taken.has(key));
  }
  rest(): JsonObject {
    const out: JsonObject = {};
    for (const key of Object.keys(this.source)) {
      if (!this.taken.has(key)) out[key] = this.source[key];
      else if (this.replaced.has(key)) out[key] = this.replaced.get(key);
    }
    return out;
  }
}

/** A copy of an object without some keys; null when nothing is left. */
function without(source: JsonObject, ...keys: string[]): JsonObject | null {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(source)) if (!keys.includes(key)) out[key] = value;
  return Object.keys(out).length > 0 ? out : null;
}

/** True when a JSON value contains a plan node somewhere inside. */
function holdsPlan(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsPlan);
  if (!isObject(value)) return false;
  if ('query_block' in value || 'table' in value || 'nested_loop' in value) return true;
  return Object.values(value).some(holdsPlan);
}

/** Count objects with a `table_name` (every table access and union result the server printed). */
export function countJsonTables(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countJsonTables(item), 0);
  if (!isObject(value)) return 0;
  const own = typeof value.table_name === 'string' ? 1 : 0;
  return own + Object.values(value).reduce((sum: number, item) => sum + countJsonTables(item), 0);
}

function str(value: unknown): string | null {
  return value === undefined || value === null ? null : String(value);
}

function strings(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string') return value.split(',');
  return [];
}

const subqueryKeys: Record<string, string> = {
  attached_subqueries: 'Subquery',
  optimized_away_subqueries: 'Subquery (optimized away)',
  select_list_subqueries: 'Subquery (select list)',
  having_subqueries: 'Subquery (having)',
  order_by_subqueries: 'Subquery (order by)',
  group_by_subqueries: 'Subquery (group by)',
  update_value_subqueries: 'Subquery (update value)',
  subqueries: 'Subquery',
};

/** Operation wrappers: key → operation name. Their flags come from `using_filesort`/`using_temporary_table`. */
const wrapperKeys: Record<string, string> = {
  ordering_operation: 'Order',
  grouping_operation: 'Group',
  duplicates_removal: 'Duplicates removal',
  windowing: 'Window',
  window_functions_computation: 'Window',
  buffer_result: 'Buffer result',
  // MariaDB UPDATE/DELETE that must read all rows before changing them ("Using buffer").
  buffer: 'Buffer',
  filesort: 'Sort',
  temporary_table: 'Temporary table',
  read_sorted_file: 'Read sorted file',
  materialization: 'Materialize',
  expression_cache: 'Expression cache',
};

class JsonPlanParser {
  readonly warnings: string[] = [];
  constructor(readonly flavor: 'mysql' | 'mariadb') {}

  /** Analyze fields (MariaDB r_*), mapped onto a node; the fields are consumed. */
  private analyzeFields(fields: Fields, node: PlanNode): void {
    const rRows = toNumber(fields.take('r_rows'));
    if (rRows !== null) node.rowsActual = rRows;
    const outputRows = fields.has('r_output_rows') ? toNumber(fields.take('r_output_rows')) : null;
    if (outputRows !== null && node.rowsActual === null) node.rowsActual = outputRows;
    const loops = toNumber(fields.take('r_loops'));
    if (loops !== null) node.loops = loops;
    const total = toNumber(fields.take('r_total_time_ms'));
    if (total !== null) node.timeMs = round(total);
    else if (fields.has('r_table_time_ms') || fields.has('r_other_time_ms')) {
      const table = toNumber(fields.take('r_table_time_ms')) ?? 0;
      const other = toNumber(fields.take('r_other_time_ms')) ?? 0;
      node.timeMs = round(table + other);
    }
  }

  /** Shared flags on wrappers and tables. */
  private commonFlags(fields: Fields): Flag[] {
    const flags: Flag[] = [];
    if (fields.take('using_filesort') === true) flags.push('filesort');
    const temporary = fields.take('using_temporary_table');
    if (temporary === true || typeof temporary === 'string') flags.push('temporary');
    // The message ("Impossible WHERE", "no matching row in const table"…) gives a flag and stays in extra.
    const message = fields.peek('message');
    if (typeof message === 'string') flags.push(...(flagsForExtraItem(message) ?? []));
    return flags;
  }

  /** Child nodes from the structural keys of an object, in the order the server printed them. */
  private children(fields: Fields): PlanNode[] {
    const out: PlanNode[] = [];
    for (const key of fields.keys()) {
      const value = fields.source[key];
      if (key === 'query_block' && isObject(value)) {
        fields.take(key);
        out.push(this.block(value, 'Select'));
      } else if (key === 'table' && isObject(value)) {
        fields.take(key);
        out.push(this.table(value));
      } else if (key === 'block-nl-join' && isObject(value)) {
        fields.take(key);
        out.push(this.blockNestedLoopJoin(value));
      } else if (key === 'nested_loop' && Array.isArray(value)) {
        fields.take(key);
        out.push(...this.nestedLoop(value));
      } else if (key === 'union_result' && isObject(value)) {
        fields.take(key);
        out.push(this.unionResult(value));
      } else if (key in subqueryKeys && Array.isArray(value)) {
        fields.take(key);
        for (const item of value) if (isObject(item)) out.push(this.subquery(item, subqueryKeys[key]!));
      } else if (key in wrapperKeys && isObject(value)) {
        fields.take(key);
        out.push(this.wrapper(key, value));
      } else if (key === 'sorts' && Array.isArray(value)) {
        fields.take(key);
        for (const item of value) if (isObject(item)) out.push(...this.children(new Fields(item)));
      } else if (holdsPlan(value)) {
        // Unknown wrapper that still contains tables: keep it as a node so no table is lost.
        fields.take(key);
        this.warnings.push(`Unknown plan element "${key}" shown as a generic node.`);
        const items = Array.isArray(value) ? value : [value];
        const node = makeNode({ operation: key });
        for (const item of items) {
          if (isObject(item)) {
            const inner = new Fields(item);
            node.children.push(...this.children(inner));
            Object.assign(node.extra, inner.rest());
          }
        }
        out.push(node);
      }
    }
    return out;
  }

  private finish(node: PlanNode, fields: Fields): PlanNode {
    node.children.push(...this.children(fields));
    Object.assign(node.extra, fields.rest());
    node.flags = [...new Set(node.flags)];
    addFlags(node);
    return node;
  }

  block(source: JsonObject, label: string): PlanNode {
    const fields = new Fields(source);
    const selectId = fields.take('select_id');
    let cost: number | null = toNumber(fields.take('cost'));
    const costInfo = fields.take('cost_info');
    if (isObject(costInfo)) {
      cost = toNumber(costInfo.query_cost) ?? cost;
      const rest = without(costInfo, 'query_cost');
      if (rest) fields.replace('cost_info', rest);
    }
    const node = makeNode({
      operation: selectId === undefined ? label : label.replace(/^(\w+)/, `$1 #${String(selectId)}`),
      cost,
      condition: str(fields.take('having_condition')),
      flags: this.commonFlags(fields),
    });
    this.analyzeFields(fields, node);
    return this.finish(node, fields);
  }

  private subquery(source: JsonObject, label: string): PlanNode {
    const fields = new Fields(source);
    const flags: Flag[] = [];
    if (fields.take('dependent') === true) flags.push('dependent-subquery');
    // MySQL marks every dependent subquery cacheable:false; the flag is news only for independent ones.
    if (fields.take('cacheable') === false && !flags.includes('dependent-subquery'))
      flags.push('uncacheable-subquery');
    let block = fields.take('query_block');
    let cache: JsonObject | null = null;
    const expressionCache = fields.peek('expression_cache');
    if (!isObject(block) && isObject(expressionCache) && isObject(expressionCache.query_block)) {
      // MariaDB wraps a correlated subquery in an expression cache: dependent by construction.
      fields.take('expression_cache');
      flags.push('dependent-subquery');
      block = expressionCache.query_block;
      cache = without(expressionCache, 'query_block');
    }
    const node = isObject(block) ? this.block(block, label) : makeNode({ operation: label });
    node.flags.push(...flags, ...this.commonFlags(fields));
    if (cache) node.extra.expression_cache = cache;
    return this.finish(node, fields);
  }

  private wrapper(key: string, source: JsonObject): PlanNode {
    const fields = new Fields(source);
    const flags = this.commonFlags(fields);
    let operation = wrapperKeys[key]!;
    if (key === 'filesort') flags.push('filesort');
    if (key === 'temporary_table') flags.push('temporary');
    if (key === 'materialization' || key === 'read_sorted_file') {
      if (key === 'materialization') flags.push('materialized');
    }
    if (key === 'ordering_operation' && flags.includes('filesort')) operation = 'Sort';
    if (key === 'windowing') {
      const windows = fields.source.windows;
      if (
        Array.isArray(windows) &&
        windows.some((window) => isObject(window) && window.using_filesort === true)
      ) {
        flags.push('filesort');
      }
    }
    const node = makeNode({ operation, flags });
    this.analyzeFields(fields, node);
    return this.finish(node, fields);
  }

  private nestedLoop(items: unknown[]): PlanNode[] {
    const nodes: PlanNode[] = [];
    const leftovers: JsonObject[] = [];
    for (const item of items) {
      if (!isObject(item)) continue;
      const fields = new Fields(item);
      nodes.push(...this.children(fields));
      const rest = fields.rest();
      if (Object.keys(rest).length > 0) leftovers.push(rest);
    }
    if (nodes.length === 1 && leftovers.length === 0) return nodes;
    const join = makeNode({ operation: 'Nested loop join', children: nodes });
    if (leftovers.length > 0) join.extra.nested_loop = leftovers;
    return [join];
  }

  private blockNestedLoopJoin(source: JsonObject): PlanNode {
    const fields = new Fields(source);
    const inner = fields.take('table');
    const node = isObject(inner) ? this.table(inner) : makeNode({ operation: 'Block nested loop join' });
    addFlags(node, 'join-buffer');
    if (node.condition === null && typeof fields.peek('attached_condition') === 'string') {
      node.condition = String(fields.take('attached_condition'));
      addFlags(node, 'using-where');
    }
    // The join buffer's own numbers (buffer size, r_filtered of the join…) stay together, verbatim.
    const children = this.children(fields);
    node.children.push(...children);
    node.extra['block-nl-join'] = fields.rest();
    return node;
  }

  private unionResult(source: JsonObject): PlanNode {
    const fields = new Fields(source);
    const table = str(fields.take('table_name'));
    const accessType = str(fields.take('access_type'));
    const flags = this.commonFlags(fields);
    if (table !== null) flags.push('temporary');
    const node = makeNode({ operation: 'Union', table, accessType, flags });
    this.analyzeFields(fields, node);
    const specs = fields.take('query_specifications');
    if (Array.isArray(specs)) {
      for (const spec of specs) if (isObject(spec)) node.children.push(this.subquery(spec, 'Select'));
    }
    return this.finish(node, fields);
  }

  table(source: JsonObject): PlanNode {
    const fields = new Fields(source);
    const table = str(fields.take('table_name'));
    const accessType = str(fields.take('access_type'));
    let key = str(fields.take('key'));
    const possibleKeys = strings(fields.take('possible_keys'));
    const keyLengthText = str(fields.peek('key_length'));
    let keyLength: number | null = null;
    if (keyLengthText !== null) {
      keyLength = toNumber(keyLengthText.split(',')[0]);
      // An index-merge key length is a list ("4,66"): the list stays in extra.
      if (!keyLengthText.includes(',')) fields.take('key_length');
    }
    const refValue = fields.take('ref');
    const ref = Array.isArray(refValue) ? refValue.map(String).join(', ') : str(refValue);
    const rows = toNumber(fields.take(this.flavor === 'mysql' ? 'rows_examined_per_scan' : 'rows'));
    const filtered = toNumber(fields.take('filtered'));
    let cost: number | null = toNumber(fields.take('cost'));
    const costInfo = fields.take('cost_info');
    if (isObject(costInfo)) {
      const read = toNumber(costInfo.read_cost);
      const evaluate = toNumber(costInfo.eval_cost);
      if (read !== null || evaluate !== null) cost = round((read ?? 0) + (evaluate ?? 0), 2);
      const rest = without(costInfo, 'read_cost', 'eval_cost');
      if (rest) fields.replace('cost_info', rest);
    }
    const attached = str(fields.take('attached_condition'));
    const indexCondition = str(fields.peek('index_condition'));
    const flags: Flag[] = [...this.commonFlags(fields)];
    if (attached !== null) flags.push('using-where');
    if (indexCondition !== null) flags.push('index-condition');
    const condition = attached ?? (indexCondition !== null ? str(fields.take('index_condition')) : null);
    if (fields.take('using_index') === true) flags.push('covering-index');
    const joinBuffer = fields.take('using_join_buffer');
    if (typeof joinBuffer === 'string')
      flags.push('join-buffer', ...(/hash/i.test(joinBuffer) ? (['hash-join'] as Flag[]) : []));
    if (fields.take('using_MRR') === true) flags.push('mrr');
    if (fields.take('not_exists') === true) flags.push('not-exists');
    if (fields.take('backward_index_scan') === true) flags.push('backward-index-scan');
    if (fields.has('first_match')) flags.push('first-match');
    if (fields.has('loosescan') || fields.has('loose_scan')) flags.push('loose-scan');
    if (fields.has('range_checked_for_each_record')) flags.push('range-checked');
    if (key === null && isObject(fields.peek('index_merge'))) {
      // MariaDB puts index-merge keys inside index_merge.{sort_union|union|intersect}[].range.key.
      const keys: string[] = [];
      const collect = (value: unknown): void => {
        if (Array.isArray(value)) value.forEach(collect);
        else if (isObject(value)) {
          if (typeof value.key === 'string') keys.push(value.key);
          else Object.values(value).forEach(collect);
        }
      };
      collect(fields.peek('index_merge'));
      if (keys.length > 0) key = keys.join(',');
    }
    if (key !== null && accessType === 'index_merge' && /^\w+\(/.test(key)) {
      // MySQL prints the merge as "sort_union(a,b)"; the key list is inside the parentheses.
      fields.replace('key', key);
      key = key.replace(/^\w+\((.*)\)$/, '$1');
    }

    const materializedKey =
      'materialized_from_subquery' in source ? 'materialized_from_subquery' : 'materialized';
    const materialized = fields.take(materializedKey);
    const children: PlanNode[] = [];
    if (isObject(materialized)) {
      flags.push('materialized');
      const inner = new Fields(materialized);
      children.push(...this.children(inner));
      const rest = inner.rest();
      if (Object.keys(rest).length > 0) fields.replace(materializedKey, rest);
    }
    const materializedTable = flags.includes('materialized');
    flags.push(...accessFlags(accessType, materializedTable ? `<${table ?? ''}>` : table));

    const node = makeNode({
      table,
      accessType,
      key,
      possibleKeys,
      keyLength,
      ref,
      rowsEstimated: rows,
      filtered,
      cost,
      condition,
      operation: table === null ? 'No table' : 'Table access',
      flags,
      children,
    });
    this.analyzeFields(fields, node);
    return this.finish(node, fields);
  }
}

/** Guess the flavor of a JSON plan from fields only one server prints. */
export function detectJsonFlavor(doc: unknown): 'mysql' | 'mariadb' | null {
  let mysql = 0;
  let mariadb = 0;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isObject(value)) return;
    for (const key of Object.keys(value)) {
      if (key === 'cost_info' || key === 'rows_examined_per_scan' || key === 'ordering_operation') mysql++;
      if (key === 'grouping_operation' || key === 'materialized_from_subquery' || key === 'used_columns')
        mysql++;
      if (key === 'r_loops' || key === 'query_optimization' || key === 'block-nl-join' || key === 'filesort')
        mariadb++;
      if (key === 'temporary_table' || key === 'read_sorted_file' || key === 'expression_cache') mariadb++;
      if (key === 'rows' && 'table_name' in value) mariadb++;
      visit(value[key]);
    }
  };
  visit(doc);
  if (mysql === mariadb) return null;
  return mysql > mariadb ? 'mysql' : 'mariadb';
}

/** True when the document carries ANALYZE (executed) numbers: MariaDB `r_*` fields. */
export function isAnalyzeJson(doc: unknown): boolean {
  const visit = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.some(visit);
    if (!isObject(value)) return false;
    return 'r_loops' in value || 'r_rows' in value || Object.values(value).some(visit);
  };
  return visit(doc);
}

/** Parse an EXPLAIN FORMAT=JSON (or MariaDB ANALYZE FORMAT=JSON) document that is already JSON-decoded. */
export function parseJsonPlan(doc: unknown, flavor?: Flavor): PlanParseResult {
  if (!isObject(doc) || !isObject(doc.query_block)) {
    return {
      ok: false,
      error: {
        code: 'PARSE_FAILED',
        message: 'This JSON is not an EXPLAIN FORMAT=JSON document (no top-level "query_block").',
        line: null,
        column: null,
      },
    };
  }
  const detected = detectJsonFlavor(doc);
  const shape: 'mysql' | 'mariadb' =
    flavor === 'mariadb' ? 'mariadb' : flavor ? 'mysql' : (detected ?? 'mysql');
  const parser = new JsonPlanParser(shape);
  const top = new Fields(doc);
  const root = parser.block(top.take('query_block') as JsonObject, 'Select');
  Object.assign(root.extra, top.rest());
  const analyze = isAnalyzeJson(doc);
  return {
    ok: true,
    report: {
      format: analyze ? 'analyze-json' : 'json',
      flavor: flavor ?? detected ?? 'unknown',
      root: assignIds(root),
      warnings: parser.warnings,
    },
  };
}
