// Export plan: accepted suggestions → per-table changes, de-duplicated, overlaps merged, stale ones set aside.
//
// Design note: each accepted item's DDL is parsed into ADD COLUMN / ADD INDEX clauses first; an
// item is checked against the current schema as a whole (a missing table or column sets the whole
// item aside, never part of it). Then, per table: identical indexes (same key parts, names aside)
// become one change listing every query they serve; an index that is a left prefix of another
// proposed one is folded into the longer one; a proposal an existing index already covers is
// skipped; an existing index that becomes a left prefix of a proposal is flagged (redundant
// after the change). Generated columns merge when name and expression match. An extension
// (`DROP INDEX i, ADD INDEX i (longer key)` in one item) keeps the name and records the index it
// replaces, so the script drops and re-adds it in one statement and the rollback restores the old key.
// Index drops (hygiene items, kind `drop-index`) are planned after the additions, in drops.ts's rules.

import type { Flavor } from '../flavors/capabilities.js';
import type { SchemaModel, TableInfo } from '../model/schema.js';
import { findColumn, findTable } from '../model/schema.js';
import { columnRefs, isNode } from '../sql/ast.js';
import { parseStatement } from '../sql/parse.js';
import type { SourceQuery, VerificationRecord } from '../workspace/model.js';
import {
  canonicalExpression,
  keyPartKey,
  keyPartsText,
  parseAlterTable,
  type Generated,
  type KeyPart,
} from './alter-clauses.js';
import { shareRepeatedExpressions } from './shared-expressions.js';
import { dropRefusal, droppedIndex, keyOf, type ForeignKeyRef, type PlannedDrop } from './drops.js';

/** What the plan needs from a workspace item. */
export interface ExportItem {
  id: string;
  table: string;
  kind: string;
  ddl: string[];
  notes: string[];
  rewrittenSql?: string;
  sources: SourceQuery[];
  verification?: VerificationRecord;
  /** The finding it fixes (workspace finding identity): alternatives of one finding are exported once. */
  finding?: string;
}

/** A column the export adds. */
export interface PlannedColumn {
  name: string;
  definition: string;
  generated: Generated | null;
  itemIds: string[];
}

/** An index the export adds. */
export interface PlannedIndex {
  name: string;
  unique: boolean;
  parts: KeyPart[];
  functional: boolean;
  /** Names of columns this change adds that the index uses. */
  newColumns: string[];
  itemIds: string[];
  /** Merges and overlaps worth a comment (also proposed as …, folds a left prefix …). */
  remarks: string[];
  /**
   * The existing index this one replaces under the same name (an extension), with its key as the
   * schema has it (`parts` null when no schema was given: the rollback cannot restore it).
   */
  replaces?: { name: string; unique: boolean; parts: KeyPart[] | null };
}

/** All changes to one table, in the order they were accepted. */
export interface TablePlan {
  table: string;
  info: TableInfo | null;
  columns: PlannedColumn[];
  indexes: PlannedIndex[];
  /** Existing indexes the export hides or drops (accepted hygiene items). */
  drops: PlannedDrop[];
  /** Items served by this table's changes, for comments. */
  items: ExportItem[];
}

/** An accepted item that is not exported, and why. */
export interface SkippedItem {
  item: ExportItem;
  reason: string;
  /** What the item adds is on the server already under its own name and key (it was applied). */
  applied?: boolean;
}

/** The export plan. `schemaChecked` is false when no schema was given (stale checks not done). */
export interface ExportPlan {
  tables: TablePlan[];
  skipped: SkippedItem[];
  schemaChecked: boolean;
}

/** What else the plan checks against. */
export interface PlanContext {
  /** The database's FOREIGN KEYs (live); null or absent: unknown, so no index drop is exported. */
  foreignKeys?: readonly ForeignKeyRef[] | null;
}

/** Build the plan for `items` (accepted, in order) against `schema` (null: unknown). */
export function planExport(
  items: readonly ExportItem[],
  flavor: Flavor,
  schema: SchemaModel | null,
  context: PlanContext = {},
): ExportPlan {
  const checked = schema !== null && schema.source !== 'none';
  const plan: ExportPlan = { tables: [], skipped: [], schemaChecked: checked };
  const byTable = new Map<string, TablePlan>();

  const fixed = new Map<string, ExportItem>();
  const dropItems: ExportItem[] = [];
  for (const item of items) {
    if (item.kind === 'drop-index') {
      dropItems.push(item);
      continue;
    }
    // One fix per finding: a workspace written before alternatives were exclusive may accept two.
    const first = item.finding ? fixed.get(item.finding) : undefined;
    if (first) {
      plan.skipped.push({
        item,
        reason: `it is an alternative fix of the same finding as the ${first.kind} already exported (${first.ddl[0] ?? first.id}); accept one of them`,
      });
      continue;
    }
    if (item.finding) fixed.set(item.finding, item);
    const parsed = item.ddl.map((statement) => parseAlterTable(statement, flavor));
    const failed = parsed.find((result) => !result.ok);
    if (failed && !failed.ok) {
      plan.skipped.push({ item, reason: `its DDL cannot be combined: ${failed.reason}` });
      continue;
    }
    const alters = parsed.flatMap((result) => (result.ok ? [result.alter] : []));
    if (alters.length === 0) {
      plan.skipped.push({ item, reason: 'it has no DDL' });
      continue;
    }
    const tableNames = new Set(alters.map((alter) => alter.table.toLowerCase()));
    if (tableNames.size > 1) {
      plan.skipped.push({ item, reason: 'its DDL changes several tables' });
      continue;
    }
    const tableName = alters[0]!.table;
    const info = checked ? (findTable(schema, tableName, alters[0]!.schema) ?? null) : null;
    if (checked && !info) {
      plan.skipped.push({ item, reason: `table ${tableName} no longer exists` });
      continue;
    }
    const clauses = alters.flatMap((alter) => alter.clauses);
    let tablePlan = byTable.get(tableName.toLowerCase());
    const problem = info ? staleProblem(clauses, info, tablePlan, flavor) : undefined;
    if (problem) {
      plan.skipped.push({ item, reason: problem });
      continue;
    }
    if (!tablePlan) {
      tablePlan = { table: info?.name ?? tableName, info, columns: [], indexes: [], drops: [], items: [] };
      byTable.set(tableName.toLowerCase(), tablePlan);
      plan.tables.push(tablePlan);
    }
    const conflict = addClauses(tablePlan, clauses, item);
    if (conflict) {
      plan.skipped.push({ item, reason: conflict });
      continue;
    }
    tablePlan.items.push(item);
  }

  for (const tablePlan of plan.tables) {
    foldLeftPrefixes(tablePlan);
    if (tablePlan.info) dropCoveredByExisting(tablePlan, tablePlan.info, plan);
    shareRepeatedExpressions(tablePlan, flavor);
  }
  planDrops(plan, dropItems, checked ? schema : null, context.foreignKeys ?? null, byTable);
  plan.tables = plan.tables.filter(
    (table) => table.columns.length > 0 || table.indexes.length > 0 || table.drops.length > 0,
  );
  return plan;
}

/** Plan the accepted index drops, in order, refusing what must not or cannot be dropped (drops.ts). */
function planDrops(
  plan: ExportPlan,
  items: readonly ExportItem[],
  schema: SchemaModel | null,
  foreignKeys: readonly ForeignKeyRef[] | null,
  byTable: Map<string, TablePlan>,
): void {
  for (const item of items) {
    const target = droppedIndex(item.ddl);
    const skip = (reason: string) => plan.skipped.push({ item, reason });
    if (typeof target === 'string') {
      skip(target);
      continue;
    }
    if (!schema) {
      skip(
        'dropping an index needs the current schema (is it still there, is it a key, what to re-create in the rollback): connect, or give the schema',
      );
      continue;
    }
    if (!foreignKeys) {
      skip(
        'dropping an index needs the current FOREIGN KEYs (InnoDB refuses to drop the only index of one): export while connected',
      );
      continue;
    }
    const info = findTable(schema, target.table, target.schema);
    const index = info?.indexes.find(
      (candidate) => candidate.name.toLowerCase() === target.index.toLowerCase(),
    );
    if (!info || !index) {
      // What the item does is done: the index is gone (dropped by this export's drop step, or by hand).
      plan.skipped.push({
        item,
        ...(info ? { applied: true } : {}),
        reason: info
          ? `already applied: ${info.name}.${target.index} no longer exists`
          : `table ${target.table} no longer exists`,
      });
      continue;
    }
    let tablePlan = byTable.get(info.name.toLowerCase());
    const same = tablePlan?.drops.find((drop) => drop.name.toLowerCase() === index.name.toLowerCase());
    if (same) {
      same.itemIds.push(item.id);
      tablePlan!.items.push(item);
      continue;
    }
    if (tablePlan?.indexes.some((added) => added.replaces?.name.toLowerCase() === index.name.toLowerCase())) {
      skip(`${info.name}.${index.name} is extended by another accepted change of this export`);
      continue;
    }
    const dropped = new Set((tablePlan?.drops ?? []).map((drop) => drop.name.toLowerCase()));
    const refusal = dropRefusal(info, index, foreignKeys, dropped);
    if (refusal) {
      skip(refusal);
      continue;
    }
    if (!tablePlan) {
      tablePlan = { table: info.name, info, columns: [], indexes: [], drops: [], items: [] };
      byTable.set(info.name.toLowerCase(), tablePlan);
      plan.tables.push(tablePlan);
    }
    tablePlan.drops.push({
      name: index.name,
      unique: index.unique,
      parts: keyOf(index),
      visible: index.visible,
      itemIds: [item.id],
      remarks: [],
    });
    tablePlan.items.push(item);
  }
}

type Clause =
  ReturnType<typeof parseAlterTable> extends infer R
    ? R extends { ok: true; alter: { clauses: (infer C)[] } }
      ? C
      : never
    : never;

/** Why an item no longer applies to the table, or undefined. */
function staleProblem(
  clauses: readonly Clause[],
  info: TableInfo,
  pending: TablePlan | undefined,
  flavor: Flavor,
): string | undefined {
  const added = new Set(
    clauses.flatMap((clause) => (clause.kind === 'add-column' ? [clause.name.toLowerCase()] : [])),
  );
  for (const column of pending?.columns ?? []) added.add(column.name.toLowerCase());
  const missing = (name: string): boolean => !findColumn(info, name) && !added.has(name.toLowerCase());
  const dropped = droppedIndexNames(clauses);
  for (const clause of clauses) {
    if (clause.kind === 'drop-index') {
      if (!info.indexes.some((index) => index.name.toLowerCase() === clause.name.toLowerCase()))
        return `index ${info.name}.${clause.name}, which this change extends, no longer exists`;
      continue;
    }
    if (clause.kind === 'add-column') {
      const existing = findColumn(info, clause.name);
      if (existing && !sameGenerated(existing.generated, clause.generated))
        return `column ${info.name}.${clause.name} already exists with another definition`;
      for (const name of expressionColumns(clause.generated?.expression, flavor))
        if (missing(name)) return `column ${info.name}.${name} no longer exists`;
    } else {
      for (const part of clause.parts) {
        const names = 'column' in part ? [part.column] : expressionColumns(part.expression, flavor);
        for (const name of names) if (missing(name)) return `column ${info.name}.${name} no longer exists`;
      }
      const sameName = clause.name
        ? info.indexes.find((index) => index.name.toLowerCase() === clause.name!.toLowerCase())
        : undefined;
      const wanted = resolvedParts(clause.parts, info);
      if (
        sameName &&
        !dropped.has(sameName.name.toLowerCase()) &&
        !sameParts(resolvedParts(existingParts(sameName), info), wanted) &&
        // Applied already: folded into a longer index under this name, or created under another
        // name (renamed because this one was taken). The covered-by-existing step says so.
        !isPrefix(wanted, resolvedParts(existingParts(sameName), info)) &&
        !info.indexes.some((index) => isPrefix(wanted, resolvedParts(existingParts(index), info)))
      )
        return `index ${info.name}.${sameName.name} already exists with other key parts`;
    }
  }
  return undefined;
}

/** Lower-case names of the indexes an item's clauses drop (to re-add them: an extension). */
function droppedIndexNames(clauses: readonly Clause[]): Set<string> {
  return new Set(
    clauses.flatMap((clause) => (clause.kind === 'drop-index' ? [clause.name.toLowerCase()] : [])),
  );
}

function sameGenerated(
  existing: { expression: string; stored: boolean } | null,
  wanted: Generated | null,
): boolean {
  if (!existing || !wanted) return false;
  return (
    existing.stored === wanted.stored &&
    canonicalExpression(existing.expression) === canonicalExpression(wanted.expression)
  );
}

/** Column names an expression reads (parsed as `SELECT expr`); empty when it does not parse. */
export function expressionColumns(expression: string | undefined, flavor: Flavor): string[] {
  if (!expression) return [];
  const parsed = parseStatement(`SELECT ${expression}`, flavor);
  if (!parsed.ok) return [];
  const columns = parsed.ast.columns as { expr?: unknown }[] | undefined;
  const expr = columns?.[0]?.expr;
  return isNode(expr) ? [...new Set(columnRefs(expr).map((ref) => ref.column))] : [];
}

function existingParts(index: TableInfo['indexes'][number]): KeyPart[] {
  return index.parts.map((part) =>
    part.expression
      ? { expression: part.expression, descending: false }
      : { column: part.column ?? '', prefixLength: part.prefixLength, descending: false },
  );
}

/**
 * Key parts with each generated column of the table read as its expression, so a proposed
 * `(MONTH(c))` and an applied index on the generated column `c_month AS (month(c))` compare equal.
 */
function resolvedParts(parts: readonly KeyPart[], info: TableInfo): KeyPart[] {
  return parts.map((part) => {
    if (!('column' in part) || part.prefixLength) return part;
    const generated = findColumn(info, part.column)?.generated;
    return generated ? { expression: generated.expression, descending: part.descending } : part;
  });
}

function sameParts(a: readonly KeyPart[], b: readonly KeyPart[]): boolean {
  return a.length === b.length && a.every((part, i) => keyPartKey(part) === keyPartKey(b[i]!));
}

function isPrefix(short: readonly KeyPart[], long: readonly KeyPart[]): boolean {
  return short.length <= long.length && short.every((part, i) => keyPartKey(part) === keyPartKey(long[i]!));
}

/** Merge one item's clauses into the table plan; a conflicting column definition sets the item aside. */
function addClauses(tablePlan: TablePlan, clauses: readonly Clause[], item: ExportItem): string | undefined {
  for (const clause of clauses) {
    if (clause.kind !== 'add-column') continue;
    const known = tablePlan.columns.find((column) => column.name.toLowerCase() === clause.name.toLowerCase());
    if (
      known &&
      !(sameGenerated(known.generated, clause.generated) && known.definition === clause.definition)
    )
      return `column ${tablePlan.table}.${clause.name} is also proposed with another definition`;
  }
  const renames = new Map<string, string>();
  const dropped = droppedIndexNames(clauses);
  for (const clause of clauses) {
    if (clause.kind === 'drop-index') continue;
    if (clause.kind === 'add-column') {
      // Already on the table as proposed (the server's stored form compared): never added again.
      const present = tablePlan.info ? findColumn(tablePlan.info, clause.name) : undefined;
      if (present && sameGenerated(present.generated, clause.generated)) continue;
      const known = tablePlan.columns.find(
        (column) => column.name.toLowerCase() === clause.name.toLowerCase(),
      );
      if (known) known.itemIds.push(item.id);
      else
        tablePlan.columns.push({
          name: clause.name,
          definition: clause.definition,
          generated: clause.generated,
          itemIds: [item.id],
        });
      continue;
    }
    const same = tablePlan.indexes.find(
      (index) => index.unique === clause.unique && sameParts(index.parts, clause.parts),
    );
    if (same) {
      same.itemIds.push(item.id);
      if (clause.name && clause.name.toLowerCase() !== same.name.toLowerCase())
        same.remarks.push(`Also proposed as ${clause.name} (same key parts): created once.`);
      continue;
    }
    let name = clause.name ?? `idx_${tablePlan.table}_${tablePlan.indexes.length + 1}`;
    const replaced = clause.name && dropped.has(clause.name.toLowerCase()) ? clause.name : null;
    const taken = (candidate: string): boolean =>
      tablePlan.indexes.some((index) => index.name.toLowerCase() === candidate.toLowerCase()) ||
      (candidate !== replaced &&
        (tablePlan.info?.indexes.some(
          (index) =>
            index.name.toLowerCase() === candidate.toLowerCase() &&
            // The same index already on the table keeps its name (then reported as applied).
            !sameParts(
              resolvedParts(existingParts(index), tablePlan.info!),
              resolvedParts(clause.parts, tablePlan.info!),
            ),
        ) ??
          false));
    if (taken(name)) {
      let n = 2;
      while (taken(`${name.slice(0, 60)}_${n}`)) n++;
      renames.set(name, `${name.slice(0, 60)}_${n}`);
      name = `${name.slice(0, 60)}_${n}`;
    }
    const newColumns = clause.parts.flatMap((part) =>
      'column' in part &&
      tablePlan.columns.some((column) => column.name.toLowerCase() === part.column.toLowerCase())
        ? [part.column]
        : [],
    );
    const old =
      replaced === null
        ? undefined
        : tablePlan.info?.indexes.find((index) => index.name.toLowerCase() === replaced.toLowerCase());
    const replaces =
      replaced === null || name !== replaced
        ? undefined
        : {
            name: old?.name ?? replaced,
            unique: old?.unique ?? false,
            parts: old ? existingParts(old) : null,
          };
    tablePlan.indexes.push({
      name,
      unique: clause.unique,
      parts: clause.parts,
      functional: clause.parts.some((part) => 'expression' in part),
      newColumns,
      itemIds: [item.id],
      remarks: [
        ...(clause.name && renames.has(clause.name)
          ? [`Renamed from ${clause.name}: that name is taken by another index.`]
          : []),
        ...(replaces
          ? [
              `Replaces ${replaces.name}${replaces.parts ? ` (${keyPartsText(replaces.parts)})` : ''} under the same name: dropped and re-added with the longer key in one statement.`,
            ]
          : []),
      ],
      ...(replaces ? { replaces } : {}),
    });
  }
  return undefined;
}

/** A proposed non-unique index that is a left prefix of another proposed one is served by it. */
function foldLeftPrefixes(tablePlan: TablePlan): void {
  for (const short of [...tablePlan.indexes]) {
    if (short.unique) continue;
    const long = tablePlan.indexes.find(
      (candidate) =>
        candidate !== short &&
        !candidate.unique &&
        candidate.parts.length > short.parts.length &&
        isPrefix(short.parts, candidate.parts),
    );
    if (!long) continue;
    long.itemIds.push(...short.itemIds.filter((id) => !long.itemIds.includes(id)));
    long.remarks.push(
      `Also serves ${short.name} (${keyPartsText(short.parts)}), a left prefix of this index: ${short.name} is not created.`,
      ...short.remarks,
    );
    tablePlan.indexes.splice(tablePlan.indexes.indexOf(short), 1);
  }
}

/** Skip proposals an existing index already covers; flag existing indexes a proposal makes redundant. */
function dropCoveredByExisting(tablePlan: TablePlan, info: TableInfo, plan: ExportPlan): void {
  for (const index of [...tablePlan.indexes]) {
    const covering = info.indexes.find(
      (existing) =>
        existing.visible &&
        existing.kind === 'btree' &&
        isPrefix(resolvedParts(index.parts, info), resolvedParts(existingParts(existing), info)) &&
        (!index.unique || (existing.unique && existing.parts.length === index.parts.length)),
    );
    if (covering) {
      tablePlan.indexes.splice(tablePlan.indexes.indexOf(index), 1);
      for (const id of index.itemIds) {
        const item = tablePlan.items.find((candidate) => candidate.id === id);
        const stillUsed = tablePlan.indexes.some((other) => other.itemIds.includes(id));
        // Same name and same key: what this export creates is there (e.g. it was applied).
        const applied =
          existingParts(covering).length === index.parts.length &&
          covering.name.toLowerCase() === index.name.toLowerCase() &&
          !tablePlan.columns.some((column) => column.itemIds.includes(id));
        if (item && !stillUsed)
          plan.skipped.push({
            item,
            ...(applied ? { applied: true } : {}),
            reason: applied
              ? `already applied: ${info.name}.${covering.name} (${keyPartsText(existingParts(covering))}) exists with this key`
              : `existing index ${info.name}.${covering.name} (${keyPartsText(existingParts(covering))}) already covers ${index.name}`,
          });
      }
      continue;
    }
    for (const existing of info.indexes) {
      if (existing.primary || existing.unique || existing.kind !== 'btree') continue;
      if (existing.name.toLowerCase() === index.replaces?.name.toLowerCase()) continue;
      const parts = existingParts(existing);
      if (parts.length < index.parts.length && isPrefix(parts, index.parts))
        index.remarks.push(
          `Existing index ${existing.name} (${keyPartsText(parts)}) is a left prefix of this one and becomes redundant; drop it later if no query needs it alone.`,
        );
    }
  }
}
