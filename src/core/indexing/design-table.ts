// One table's index design within a query: equality and join columns, IN lists, then one range or the
// ORDER BY / GROUP BY columns, then covering columns; compared with the table's existing indexes.
//
// Design note: for each table the key is built in the order the server can use it:
//   1. equality columns (constants, and for a table read inside a join the join columns), any order
//      among themselves; ordered to line up with an existing index (so it can be extended), then by
//      selectivity when statistics are known;
//   2. IN lists (they seek like equalities but the rows come back per value, so no sort after them);
//   3. either ONE range column, or the ORDER BY / GROUP BY columns when everything before them is an
//      equality (the rows are then read in index order: no filesort, no temporary table). With a LIMIT
//      the sort wins (the scan stops after LIMIT rows), without one the range does;
//   4. when the query reads few other columns of the table, those columns, so the index covers it.
// InnoDB appends the primary key to every secondary index, so primary-key columns are never added at
// the end. Then: an index that seeks the same way serves the query (no new index), one that is a left
// prefix of the design is extended in one ALTER, and nothing duplicates an index or is its left prefix.

import { findColumn } from '../model/schema.js';
import type { ServerInfo } from '../model/server-info.js';
import { evaluationRisk } from '../advice/evaluation-risk.js';
import { printSql } from '../sql/parse.js';
import {
  checkFunctionalKeyParts,
  indexesVirtualColumns,
  NONDETERMINISTIC_FUNCTIONS,
  quoteIdentifier,
  uniqueName,
} from '../advice/index-ddl.js';
import type { BlockAccess, ColumnPredicate, SortItem } from './access.js';
import type { Candidate, DesignedPart, DesignOptions, PartRole, TableIndexPlan } from './design-types.js';
import {
  alignWithExisting,
  applyLimits,
  canonical,
  clashingExpressions,
  descendingKeyParts,
  keyBytesOf,
  label,
  orderBySelectivity,
  partFor,
  partsSql,
  pickRange,
  sameKey,
  samePart,
  serves,
} from './key-parts.js';
import { MAX_KEY_PARTS, needsPrefix, unindexable } from './key-length.js';

export function designTable(
  access: BlockAccess,
  index: number,
  placed: readonly number[],
  role: TableIndexPlan['role'],
  server: ServerInfo,
  options: DesignOptions,
): TableIndexPlan {
  const table = access.tables[index]!;
  const info = table.info;
  const notes: string[] = [];
  const plan: TableIndexPlan = {
    table: info.name,
    alias: table.alias && table.alias !== info.name ? table.alias : null,
    role,
    verdict: 'none',
    parts: [],
    indexName: null,
    ddl: [],
    existingIndex: null,
    covering: false,
    sortFromIndex: false,
    keyBytes: null,
    notes,
  };
  if (info.kind) {
    // A view or a sequence has no indexes of its own (ALTER TABLE on it is refused): no design here.
    notes.push(
      info.kind === 'view'
        ? `${info.name} is a view: an index for it goes on the base table its query reads.`
        : `${info.name} is a sequence: it has no indexes.`,
    );
    return plan;
  }
  // MySQL keys a functional part on a hidden VIRTUAL column: InnoDB only (ERROR 1478 on MyISAM).
  const functional = server.capabilities.functionalIndexes && indexesVirtualColumns(info, server.flavor);
  // MySQL substitutes an expression by an indexed generated column with the same expression (compared in
  // the server's stored form): the column is the key part then, and an index on it already serves.
  const substituted = (access.predicates.get(index) ?? []).map((predicate) => {
    if (!predicate.expression) return predicate;
    const key = canonical(predicate.expression);
    const generated = info.columns.find(
      (column) => column.generated && canonical(column.generated.expression) === key,
    );
    if (!generated) return predicate;
    if (server.flavor === 'mariadb') {
      notes.push(
        `${generated.name} is a generated column for ${predicate.expression}, but MariaDB does not substitute the expression by it: write the condition on ${generated.name} to use its index.`,
      );
      return predicate;
    }
    return { ...predicate, column: generated.name, expression: undefined };
  });
  const predicates = substituted.filter((predicate) => {
    if (!predicate.expression) return true;
    if (!functional) {
      notes.push(
        server.capabilities.functionalIndexes
          ? `${predicate.expression} wraps a column: ${info.name} is ${info.engine}, and MySQL keys a functional part (a hidden VIRTUAL column) only in InnoDB tables (ERROR 1478), so it stays out of the key (see the function-wrapped advice for an indexed STORED generated column or a rewrite).`
          : `${predicate.expression} wraps a column: ${server.flavor === 'mariadb' ? 'MariaDB' : 'this server'} has no functional key parts, so it stays out of the key (see the function-wrapped advice for an indexed generated column or a rewrite).`,
      );
      return false;
    }
    const upper = predicate.expression.toUpperCase();
    if ([...NONDETERMINISTIC_FUNCTIONS].some((name) => upper.includes(`${name}(`))) return false;
    // Arithmetic that can fail on stored rows (ERROR 1690 / 1365) makes the DDL depend on the data: the
    // function-wrapped advice checks the data first; the design leaves it out of the key.
    const risk =
      predicate.expressionNode &&
      evaluationRisk(predicate.expressionNode, info.columns, server.sqlMode.session, (node) =>
        printSql(node, server.flavor),
      );
    if (risk) {
      notes.push(
        `${predicate.expression} stays out of the key: computing it for every stored row can fail (${risk.overflow.length ? 'ERROR 1690, out of range' : 'ERROR 1365, division by 0'}); see the function-wrapped advice, which checks the data.`,
      );
      return false;
    }
    return (
      checkFunctionalKeyParts({ kind: 'index', parts: [{ expression: predicate.expression }] }, server.flavor)
        .length === 0
    );
  });
  const columnOf = (name: string) => findColumn(info, name);
  const usable = (predicate: ColumnPredicate): boolean => {
    if (predicate.expression) return true;
    const column = columnOf(predicate.column);
    if (!column) return false;
    if (unindexable(column)) {
      notes.push(`${column.name} is ${column.dataType.toUpperCase()}: it cannot be a B-tree key part.`);
      return false;
    }
    return true;
  };
  const keyOf = (predicate: ColumnPredicate) =>
    predicate.expression ? `e:${canonical(predicate.expression)}` : `c:${predicate.column.toLowerCase()}`;

  // 1. Equalities: constants and join columns to the tables placed before this one.
  const equalities = new Map<string, Candidate>();
  for (const predicate of predicates)
    if (predicate.kind === 'equality' && usable(predicate) && !equalities.has(keyOf(predicate)))
      equalities.set(keyOf(predicate), { part: partFor(predicate, 'equality'), predicate });
  const joinColumns: string[] = [];
  for (const join of access.joins) {
    const mine = join.left.table === index ? join.left : join.right.table === index ? join.right : null;
    const other = mine === join.left ? join.right : join.left;
    if (!mine || !placed.includes(other.table)) continue;
    const column = columnOf(mine.column);
    if (!column || unindexable(column)) continue;
    joinColumns.push(column.name);
    if (!equalities.has(`c:${column.name.toLowerCase()}`))
      equalities.set(`c:${column.name.toLowerCase()}`, { part: { column: column.name, role: 'join' } });
  }
  const inLists = new Map<string, Candidate>();
  for (const predicate of predicates)
    if (
      predicate.kind === 'in' &&
      usable(predicate) &&
      !equalities.has(keyOf(predicate)) &&
      !inLists.has(keyOf(predicate))
    )
      inLists.set(keyOf(predicate), { part: partFor(predicate, 'in'), predicate });
  const ranges = predicates.filter(
    (predicate) =>
      predicate.kind === 'range' &&
      usable(predicate) &&
      !equalities.has(keyOf(predicate)) &&
      !inLists.has(keyOf(predicate)),
  );

  // Join columns first (the lookup every row of the outer tables makes; reusable by other joins), then constants.
  const orderEqualities = orderBySelectivity(
    [...equalities.values()].sort((a, b) => Number(b.part.role === 'join') - Number(a.part.role === 'join')),
    info,
    options,
  );
  const orderedEq = alignWithExisting(orderEqualities, info);
  const orderedIn = orderBySelectivity([...inLists.values()], info, options);
  const seekKeys = new Set([...equalities.keys(), ...inLists.keys()]);

  // 3. Sort / group columns (driving or single table only), or one range.
  const descOk = descendingKeyParts(server);
  let sortParts: DesignedPart[] | null = null;
  let sortWhat = '';
  let sortPossible = false;
  if (role !== 'inner') {
    const group = access.groupBy && access.groupBy[0]?.table === index ? access.groupBy : null;
    const orderBy = access.orderBy && access.orderBy[0]?.table === index ? access.orderBy : null;
    let items: SortItem[] | null = null;
    if (group && !access.groupByOther) {
      const sameSet =
        orderBy &&
        orderBy.length === group.length &&
        orderBy.every((item) => group.some((g) => g.column.toLowerCase() === item.column.toLowerCase()));
      items = sameSet ? orderBy : group;
      sortWhat = 'GROUP BY';
    } else if (!access.groupBy && !access.groupByOther && orderBy && !access.orderByOther) {
      items = orderBy;
      sortWhat = 'ORDER BY';
    }
    if (items) {
      const remaining = items.filter((item) => !equalities.has(`c:${item.column.toLowerCase()}`));
      const mixed = new Set(remaining.map((item) => item.desc)).size > 1;
      const usableColumns = remaining.every((item) => {
        const column = columnOf(item.column);
        return column && !unindexable(column) && !needsPrefix(column);
      });
      if (mixed && !descOk)
        notes.push(
          `${sortWhat} mixes ASC and DESC: this server has no descending key parts, so the sort cannot come from an index.`,
        );
      else if (!usableColumns)
        notes.push(`${sortWhat} is on a TEXT/BLOB/JSON column: no index can give its order.`);
      else {
        sortPossible = true;
        const role: PartRole = sortWhat === 'GROUP BY' ? 'group' : 'sort';
        sortParts = remaining.map((item) => ({
          column: columnOf(item.column)!.name,
          role,
          ...(mixed && item.desc ? { desc: true } : {}),
        }));
      }
    }
  }
  const range = pickRange(ranges, info, options);
  let tail: DesignedPart[] = [];
  let sortFromIndex = false;
  if (sortParts && orderedIn.length > 0) {
    notes.push(
      `The IN list on ${orderedIn.map((candidate) => label(candidate.part)).join(', ')} returns rows per value, so the ${sortWhat} still sorts; the index seeks every listed value instead.`,
    );
    sortParts = null;
    sortPossible = false;
  }
  if (sortParts && range && sortParts.length > 0 && sameKey(sortParts[0]!, range)) {
    tail = sortParts.map((part, i) => (i === 0 ? { ...part, role: 'range' as PartRole } : part));
    sortFromIndex = true;
    notes.push(
      `${label(range.part)} is both the range and the first ${sortWhat} column: one index part serves both.`,
    );
  } else if (sortParts && range && access.limit) {
    tail = [...sortParts, { ...range.part }];
    sortFromIndex = true;
    notes.push(
      `${sortWhat} … LIMIT: the ${sortWhat} columns follow the equalities so rows come in index order and the scan stops after LIMIT rows; the range on ${label(range.part)} is checked inside the index.`,
    );
  } else if (range) {
    tail = [range.part];
    if (sortParts && sortParts.length > 0)
      notes.push(
        `The range on ${label(range.part)} narrows the rows read; without a LIMIT that beats reading in ${sortWhat} order, so the ${sortWhat} sorts the (fewer) matching rows.`,
      );
  } else if (sortParts) {
    tail = sortParts;
    sortFromIndex = true;
  } else if (sortPossible) sortFromIndex = true;
  if (sortParts && sortParts.length === 0) sortFromIndex = true;

  let parts: DesignedPart[] = [...orderedEq.map((c) => c.part), ...orderedIn.map((c) => c.part), ...tail];
  for (const part of parts) if (part.column) seekKeys.add(`c:${part.column.toLowerCase()}`);

  // Drop trailing primary-key columns: InnoDB already appends the primary key (in its order).
  const primary = info.indexes.find((candidate) => candidate.primary);
  const primaryColumns = (primary?.parts ?? []).map((part) => (part.column ?? '').toLowerCase());
  let droppedPrimary = false;
  for (let start = 0; start < parts.length && primary; start++) {
    const trailing = parts.slice(start);
    if (trailing.some((part) => !part.column || part.desc || ['equality', 'join', 'in'].includes(part.role)))
      continue;
    const head = new Set(parts.slice(0, start).map((part) => part.column?.toLowerCase()));
    const appended = primaryColumns.filter((name) => !head.has(name));
    if (trailing.every((part, i) => part.column!.toLowerCase() === appended[i])) {
      notes.push(
        `${trailing.map((part) => part.column).join(', ')} ${trailing.length === 1 ? 'is' : 'are'} the primary key, which InnoDB already appends to every secondary index: left out.`,
      );
      parts = parts.slice(0, start);
      droppedPrimary = true;
      break;
    }
  }
  if (parts.length === 0) {
    if (primary && (droppedPrimary || (sortFromIndex && tail.length === 0 && equalities.size > 0))) {
      plan.verdict = 'served';
      plan.existingIndex = primary.name;
      plan.sortFromIndex = sortFromIndex;
      notes.push(`The primary key ${primary.name} already serves this access.`);
    } else if (predicates.length === 0 && joinColumns.length === 0)
      notes.push('Nothing in the query can seek an index on this table.');
    return plan;
  }

  // A unique index whose every column is fixed by equalities: at most one row, nothing to add.
  const unique = info.indexes.find(
    (candidate) =>
      candidate.unique &&
      candidate.visible &&
      candidate.kind === 'btree' &&
      candidate.parts.length > 0 &&
      candidate.parts.every(
        (part) => part.column && !part.prefixLength && equalities.has(`c:${part.column.toLowerCase()}`),
      ),
  );
  if (unique) {
    plan.verdict = 'served';
    plan.existingIndex = unique.name;
    plan.parts = unique.parts.map((part) => ({ column: part.column!, role: 'equality' }));
    notes.push(
      `${unique.primary ? 'The primary key' : `Unique index ${unique.name}`} is fixed by the query's equalities: at most one row is read${role === 'inner' ? ' per row of the tables before it' : ''}.`,
    );
    return plan;
  }

  // 4. Covering columns.
  const referenced = [...(access.referenced.get(index) ?? [])];
  const maxCover = options.maxCoverColumns ?? 3;
  if (
    access.kind === 'select' &&
    !access.star.has(index) &&
    !access.subqueries &&
    !parts.some((part) => part.prefixLength)
  ) {
    const inKey = new Set(parts.filter((part) => part.column).map((part) => part.column!.toLowerCase()));
    const missing = referenced.filter(
      (name) => !inKey.has(name.toLowerCase()) && !primaryColumns.includes(name.toLowerCase()),
    );
    const columns = missing.map((name) => columnOf(name));
    const coverable = columns.every((column) => column && !unindexable(column) && !needsPrefix(column));
    if (missing.length === 0) plan.covering = !parts.some((part) => part.expression);
    else if (
      coverable &&
      missing.length <= maxCover &&
      parts.length + missing.length <= Math.min(MAX_KEY_PARTS, 6)
    ) {
      parts.push(...columns.map((column) => ({ column: column!.name, role: 'cover' as PartRole })));
      plan.covering = true;
      notes.push(
        `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} appended so the index covers the query (no row lookups); ${missing.length === 1 ? 'it is' : 'they are'} not used to seek.`,
      );
    } else if (missing.length > 0)
      notes.push(
        `Not covering: the query reads ${missing.length} more column${missing.length === 1 ? '' : 's'} of ${info.name}${coverable ? '' : ' (some are TEXT/BLOB/JSON)'}.`,
      );
  }

  // Limits: prefixes for TEXT/BLOB, 3072 bytes, 16 parts.
  parts = applyLimits(parts, info, notes);
  plan.parts = parts;
  plan.sortFromIndex = sortFromIndex;
  plan.keyBytes = keyBytesOf(parts, info);
  if (plan.covering)
    plan.covering = referenced.every(
      (name) =>
        primaryColumns.includes(name.toLowerCase()) ||
        parts.some((part) => !part.prefixLength && part.column?.toLowerCase() === name.toLowerCase()),
    );
  // Reading a whole table in index order only to skip a sort pays off with a LIMIT or a covering index.
  if (
    orderedEq.length + orderedIn.length === 0 &&
    !range &&
    !access.limit &&
    !plan.covering &&
    role !== 'inner'
  ) {
    notes.push(
      `Only ${sortWhat || 'the sort'} would use this index and the query reads every row without a LIMIT: a scan and a sort are cheaper than ${info.name}'s rows in index order, so no index is proposed.`,
    );
    plan.parts = [];
    plan.verdict = 'none';
    return plan;
  }

  // Why this order.
  const eqNames = orderedEq.map((candidate) => label(candidate.part));
  if (eqNames.length > 0)
    notes.unshift(
      `${eqNames.join(', ')} first: ${role === 'inner' && joinColumns.length > 0 ? `${joinColumns.join(', ')} ${joinColumns.length === 1 ? 'is' : 'are'} looked up for every row of the tables read before ${info.name}; ` : ''}equality columns seek a single key prefix${options.distinct && eqNames.length > 1 ? ' (most selective first)' : ''}.`,
    );
  if (role === 'inner' && joinColumns.length === 0)
    notes.push(
      `${info.name} has no join equality with the tables before it: it is read as a whole for each of their rows unless its own filters seek.`,
    );

  // Existing indexes: served, extend, or create.
  const seekParts = parts.filter((part) => part.role !== 'cover');
  const serving = info.indexes.find((existing) =>
    serves(existing, seekParts, equalities.size + inLists.size),
  );
  if (serving) {
    plan.verdict = 'served';
    plan.existingIndex = serving.name;
    notes.push(
      `Existing index ${serving.name} already seeks${sortFromIndex && tail.length > 0 ? ' and sorts' : ''} this way: no new index.`,
    );
    return plan;
  }
  const extendableFor = (design: DesignedPart[]) =>
    info.indexes.find(
      (existing) =>
        !existing.unique &&
        !existing.primary &&
        existing.visible &&
        existing.kind === 'btree' &&
        existing.parts.length < design.length &&
        // MySQL cannot drop and re-add a functional index in one in-place ALTER (its hidden virtual
        // columns: "INPLACE ADD or DROP of virtual columns cannot be combined"), so it is never extended.
        !(functional && existing.parts.some((part) => part.expression)) &&
        existing.parts.every((part, i) => samePart(part, design[i])),
    );
  let extendable = extendableFor(parts);
  // MySQL: never a second functional key part over an expression another index keys on (see clashingExpressions).
  const clashes = functional ? clashingExpressions(parts, info, extendable) : [];
  if (clashes.length > 0) {
    const removed = new Set(clashes.map((clash) => canonical(clash.expression)));
    const isRemoved = (part: DesignedPart) =>
      Boolean(part.expression && removed.has(canonical(part.expression)));
    const removedHead = parts.filter(
      (part) => isRemoved(part) && ['equality', 'join', 'in'].includes(part.role),
    );
    parts = parts.filter((part) => !isRemoved(part));
    for (const clash of clashes)
      notes.push(
        `(${clash.expression}) is already a functional key part of ${clash.index.name}: MySQL keeps one hidden column per functional key part and substitutes a query's expression by only one of them, so a second one would leave ${clash.index.name} unusable for queries on the expression alone (measured on 8.0.33). It is left out of this index; to key both on it, index one VIRTUAL generated column for the expression in both (the export does that for indexes it adds together).`,
      );
    const seek = parts.filter((part) => part.role !== 'cover');
    const servingNow =
      seek.length === 0
        ? clashes[0]!.index
        : info.indexes.find((existing) =>
            serves(existing, seek, equalities.size + inLists.size - removedHead.length),
          );
    if (servingNow) {
      plan.verdict = 'served';
      plan.existingIndex = servingNow.name;
      plan.parts = seek.length === 0 ? [] : parts;
      plan.keyBytes = keyBytesOf(plan.parts, info);
      notes.push(`Existing index ${servingNow.name} serves what is left: no new index.`);
      return plan;
    }
    plan.parts = parts;
    plan.keyBytes = keyBytesOf(parts, info);
    extendable = extendableFor(parts);
  }
  const taken = info.indexes.map((existing) => existing.name);
  const keySql = partsSql(parts);
  if (extendable) {
    plan.verdict = 'extend';
    plan.existingIndex = extendable.name;
    plan.indexName = extendable.name;
    plan.ddl = [
      `ALTER TABLE ${quoteIdentifier(info.name)} DROP INDEX ${quoteIdentifier(extendable.name)}, ADD INDEX ${quoteIdentifier(extendable.name)} (${keySql}), ALGORITHM=INPLACE, LOCK=NONE;`,
    ];
    notes.push(
      `Extends ${extendable.name} (${extendable.parts.map((part) => part.column ?? part.expression).join(', ')}), a left prefix of this index: one index instead of two, and every query ${extendable.name} served still uses it.`,
    );
    return plan;
  }
  const nameParts = parts.map((part) => part.column ?? 'expr');
  plan.verdict = 'create';
  plan.indexName = uniqueName(`idx_${info.name}_${nameParts.join('_')}`, taken);
  plan.ddl = [
    `ALTER TABLE ${quoteIdentifier(info.name)} ADD INDEX ${quoteIdentifier(plan.indexName)} (${keySql});`,
  ];
  const redundant = info.indexes.filter(
    (existing) =>
      !existing.unique &&
      !existing.primary &&
      existing.parts.length > 0 &&
      existing.parts.every((part, i) => samePart(part, parts[i])),
  );
  if (redundant.length > 0)
    notes.push(
      `Existing index ${redundant.map((existing) => existing.name).join(', ')} becomes a left prefix of this one and can be dropped.`,
    );
  return plan;
}
