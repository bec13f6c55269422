// Advice for a wrapped-column finding: exact rewrite, plain index, functional index, generated column — best first.
//
// Design note: the advice is a pure function of the finding's site (operator, the other side, the
// clause and whether it is a conjunct of its clause), the resolved columns (type, collation), the
// table's existing indexes and the target's capabilities. Every suggestion carries an honest
// `equivalent` flag: rewrites only when they return the same rows for any data; index DDL does not
// change results, so it is equivalent, and a generated column is declared with the expression's
// collation (MySQL otherwise substitutes it with the table's collation and returns wrong rows).

import type { CastCheck, Suggestion } from '../model/report.js';
import { castInvalidPredicate } from './cast-check.js';
import type { TableInfo } from '../model/schema.js';
import type { ServerInfo } from '../model/server-info.js';
import { type AstNode, columnRefs, functionArgs, isNode } from '../sql/ast.js';
import type { PredicateSite } from '../sql/predicates.js';
import type { ResolvedColumn } from '../rules/engine.js';
import type { WrappedOperand } from '../sql/wrapping.js';
import { hasDoubleQuoted, isConstant, literalOf, quotesIdentifiers } from './literals.js';
import {
  checkFunctionalKeyParts,
  builtinFunctions,
  existingIndexServing,
  expressionIndexBlockers,
  functionsIn,
  generatedKeyPrefix,
  indexExpressionText,
  indexesVirtualColumns,
  isUnsignedInteger,
  jsonShape,
  JSON_CHAR_LENGTH,
  keyPartsSql,
  LOW_CARDINALITY,
  NONDETERMINISTIC_FUNCTIONS,
  quoteIdentifier,
  returnsBlobOrText,
  uniqueName,
  wrapperToken,
  type ProposedPart,
} from './index-ddl.js';
import { generatedColumnType } from './generated-type.js';
import { evaluationCheck, evaluationRisk, evaluationRiskNote } from './evaluation-risk.js';
import { plainIndexAdvice } from './plain-index.js';
import { exactRewrite } from './rewrites.js';
import { ancestorsOf, columnNode, editStatement, isConjunct, numberNode } from './sql-edit.js';

/** How existing indexes relate to the expression (mirrors rules/utils/wrapped-site `Served`). */
export type ServedBy =
  | { by: 'none' }
  | { by: 'index'; index: string }
  | { by: 'generated-column-by-name'; column: string; index: string };

/** Everything the advice needs about one wrapped operand. */
export interface WrappedAdviceInput {
  /** Statement text and its AST (positions in the AST are relative to `sql`). */
  sql: string;
  ast: AstNode;
  server: ServerInfo;
  site: PredicateSite;
  wrapped: WrappedOperand;
  columns: readonly ResolvedColumn[];
  served: ServedBy;
  /** All sites of the statement (for the query's equality columns). */
  sites: readonly PredicateSite[];
  resolveColumns(site: PredicateSite, expression: unknown): ResolvedColumn[];
}

/** Suggestions (best first) and finding-level notes. */
export interface Advice {
  suggestions: Suggestion[];
  notes: string[];
}

const FLIP: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** Advise on one wrapped operand. Never throws; returns no DDL when the table or a column type is unknown. */
export function adviseWrapped(input: WrappedAdviceInput): Advice {
  const { site, wrapped, server } = input;
  const flavor = server.flavor;
  const caps = server.capabilities;
  const suggestions: Suggestion[] = [];
  const notes: string[] = [];
  const first = input.columns[0];
  const table = first?.table ?? null;
  if (!first || !table || input.columns.some((column) => !column.info || column.table !== table))
    return { suggestions, notes };

  const onRight = site.right === wrapped.node;
  const operator = onRight ? (FLIP[site.operator ?? ''] ?? site.operator ?? '') : (site.operator ?? '');
  const other = onRight ? site.left : site.right;
  const ordering = site.clause === 'order-by' || site.clause === 'group-by';
  // Under ANSI_QUOTES a "…" on the other side is a column (the parser reads it as a string): no rewrite.
  const ansiIdentifier =
    other !== null && quotesIdentifiers(server.sqlMode.session) && hasDoubleQuoted(other);
  const otherIsConstant = other === null || (!ansiIdentifier && otherConstant(other));
  const ancestors = ancestorsOf(input.ast, site.node) ?? [];
  const conjunct = !ordering && isConjunct(ancestors);
  const backslashEscapes = !/NO_BACKSLASH_ESCAPES/i.test(server.sqlMode.session);

  // An indexed generated column already has this expression but the server does not substitute it.
  if (input.served.by === 'generated-column-by-name') {
    const edited = editStatement(
      input.sql,
      input.ast,
      wrapped.node,
      columnNode(first.qualifier, input.served.column),
      flavor,
    );
    if (edited)
      suggestions.push({
        kind: 'rewrite',
        equivalent: true,
        ddl: [],
        indexName: input.served.index,
        rewrittenSql: edited.sql,
        notes: [
          `Generated column ${input.served.column} (index ${input.served.index}) has this expression; name it in the query because ${flavorName(flavor)} never substitutes generated columns.`,
        ],
      });
    return { suggestions, notes };
  }

  const equalityColumns = conjunct ? equalityColumnsOf(input, table, first) : [];
  const builtins = builtinFunctions(flavor);
  const unknown = [...functionsIn(wrapped.node).names].filter((name) => !builtins.has(name));
  if (unknown.length > 0)
    notes.push(
      ...expressionIndexBlockers(wrapped.node, [], flavor)
        .filter((reason) => /built-in/.test(reason))
        .map((reason) => `Unknown function: ${reason}`),
    );

  // 1. Exact rewrite, then the plain index that makes it fast.
  // Each rewrite checks the values it needs (literals; NOW() or a parameter for interval shifts).
  if (ansiIdentifier)
    notes.push(
      `${indexExpressionText(input.sql, other, flavor)} is a column name under ANSI_QUOTES, not a string: the predicate compares two columns, so no rewrite with a constant is offered.`,
    );
  if (!ordering && other && !ansiIdentifier && (otherIsConstant || columnRefs(other).length === 0)) {
    const refusals: string[] = [];
    const rewrite = exactRewrite(
      {
        wrapped,
        operator,
        other,
        columns: input.columns,
        backslashEscapes,
        text: (node) => indexExpressionText(input.sql, node, flavor),
        sqlMode: server.sqlMode.session,
        flavor,
      },
      refusals,
    );
    notes.push(...refusals);
    if (rewrite) {
      const target = rewrite.target === 'site' ? site.node : wrapped.node;
      const edited = editStatement(input.sql, input.ast, target, rewrite.replacement, flavor);
      if (edited) {
        const suggestion: Suggestion = {
          kind: 'rewrite',
          equivalent: (rewrite.equivalent ?? true) && unknown.length === 0,
          ddl: [],
          rewrittenSql: edited.sql,
          notes: [
            ...(unknown.length > 0
              ? [
                  `Not equivalent: the original fails on ${flavorName(flavor)} (ERROR 1305, ${unknown.map((name) => `${name}()`).join(', ')} does not exist); this is what it means in ${flavorName(flavor)}'s SQL.`,
                ]
              : []),
            ...rewrite.notes,
          ],
        };
        suggestions.push(suggestion);
        const column = first.info?.name ?? first.column;
        // The index serves the rewritten query; name it when servedSql() would not find it (a non-equivalent rewrite).
        const index = plainIndexAdvice(
          table,
          column,
          equalityColumns,
          suggestion.equivalent ? undefined : edited.sql,
        );
        if (index.note)
          suggestion.notes.push(index.note.replace(/the predicate on \S+\.$/, 'the rewritten predicate.'));
        if (index.suggestion) {
          index.suggestion.notes[0] = `Lets the rewritten predicate on ${column} seek instead of scanning.`;
          suggestions.push(index.suggestion);
        }
      }
    }
  }

  // An exact rewrite plus a plain index beats any index on the expression: stop here.
  if (suggestions.some((suggestion) => suggestion.kind === 'rewrite')) return { suggestions, notes };

  // 2./3. Index the expression: functional index (MySQL >= 8.0.13) and/or indexed generated column.
  const { names, impure } = functionsIn(wrapped.node);
  const nondeterministic = [...names].filter((name) => NONDETERMINISTIC_FUNCTIONS.has(name));
  if (nondeterministic.length > 0 || impure) {
    notes.push(
      `No index on the expression: ${nondeterministic.map((name) => `${name}()`).join(', ') || 'a variable or subquery'} is not deterministic, and servers refuse it in an index (MySQL 3758, MariaDB 1901).`,
    );
    return { suggestions, notes };
  }
  const blockers = expressionIndexBlockers(
    wrapped.node,
    input.columns.map((column) => ({
      name: column.info?.name ?? column.column,
      autoIncrement: column.info?.autoIncrement ?? false,
      unsignedInteger: column.info ? isUnsignedInteger(column.info) : false,
    })),
    flavor,
  );
  // MariaDB refuses an indexed (or STORED) generated column over CAST(string AS DATETIME | TIME): the
  // conversion depends on the session (ERROR 1901, measured on 10.11; CAST … AS DATE is accepted).
  const castTarget = flavor === 'mariadb' ? castCheckOf(input, table)?.target : undefined;
  if (castTarget === 'DATETIME' || castTarget === 'TIME')
    blockers.push(
      `MariaDB does not index a generated column over CAST(${castCheckOf(input, table)!.column} AS ${castTarget}) of a string column (ERROR 1901: the conversion depends on the session). Store the value as ${castTarget} (ALTER the column's type) to index it.`,
    );
  if (blockers.length > 0) {
    notes.push(
      ...blockers
        .filter((reason) => !notes.includes(`Unknown function: ${reason}`))
        .map((reason) => `No index on the expression: ${reason}`),
    );
    return { suggestions, notes };
  }
  const json = jsonShape(wrapped);
  if (json === 'json') {
    notes.push(
      'No index on the expression: a raw JSON value cannot be indexed; compare the unquoted scalar (->> or JSON_UNQUOTE) and index CAST(… AS CHAR(n)) COLLATE utf8mb4_bin.',
    );
    return { suggestions, notes };
  }
  const info = first.info;
  if (!info) return { suggestions, notes };
  const expression = indexExpressionText(input.sql, wrapped.node, flavor);
  const keyExpression =
    json === 'unquoted' ? `CAST(${expression} AS CHAR(${JSON_CHAR_LENGTH})) COLLATE utf8mb4_bin` : expression;
  // MySQL uses an index on the expression with the query unchanged, except for LIKE and join conditions.
  const joinOrLike = /LIKE/.test(operator) || (other !== null && columnRefs(other).length > 0);
  // MySQL 8.0.33 never matches a CONCAT() holding a string constant to an index on it (functional or a
  // generated column; the same CONCAT of columns alone is matched): advice-ddl.test.ts shows both.
  const concatWithString =
    wrapped.kind === 'concat' && functionArgs(wrapped.node).some((arg) => literalOf(arg)?.kind === 'string');
  const unmatched = joinOrLike || (caps.generatedColumnSubstitution && concatWithString);
  const substitutes = caps.generatedColumnSubstitution && !unmatched;
  const columnNames = [...new Set(input.columns.map((column) => column.info?.name ?? column.column))];
  const token = wrapperToken(wrapped);
  // Arithmetic that can fail on stored rows (ERROR 1690 / 1365): said offline, checked live.
  const risk = evaluationRisk(
    wrapped.node,
    input.columns.flatMap((column) => (column.info ? [column.info] : [])),
    server.sqlMode.session,
    (node) => indexExpressionText(input.sql, node, flavor),
  );
  const expressionNotes = [
    ...commonExpressionNotes(input, info.dataType, equalityColumns),
    ...castRiskNotes(input, table),
    ...(risk ? [evaluationRiskNote(table.name, expression, risk)] : []),
  ];
  const castCheck =
    castCheckOf(input, table) ?? (risk ? evaluationCheck(table.name, expression, risk) : undefined);

  // MySQL compares the index of a DECIMAL expression (functional, or a substituted generated column)
  // with a DECIMAL constant only: `amount / 3 > 300` scans, `amount / 3 > 300.0` seeks (same rows:
  // an integer converts to DECIMAL exactly).
  const decimalQuery =
    caps.generatedColumnSubstitution && decimalValued(wrapped, input.columns) && other
      ? decimalLiteralQuery(input, other)
      : undefined;

  // MySQL indexes a VIRTUAL column (functional key parts are hidden ones) only in InnoDB: elsewhere the
  // generated column is STORED and there is no functional index (ERROR 1478).
  const virtualIndexed = indexesVirtualColumns(table, flavor);
  if (caps.functionalIndexes && !virtualIndexed)
    notes.push(
      `No functional index: ${table.name} is ${table.engine}, and MySQL indexes a functional key part (a hidden VIRTUAL column) only in InnoDB (ERROR 1478); an indexed STORED generated column works there.`,
    );
  if (caps.functionalIndexes && !unmatched && virtualIndexed) {
    const parts: ProposedPart[] = [
      ...equalityColumns.map((name) => ({ column: name })),
      { expression: keyExpression },
    ];
    const existing = existingIndexServing(table, parts);
    const problems = checkFunctionalKeyParts({ kind: 'index', parts }, flavor);
    if (wrapped.kind !== 'arithmetic' && returnsBlobOrText(wrapped.name, info))
      problems.push(
        `${expression} returns ${info.dataType.toUpperCase()} like ${info.name}, and MySQL cannot index a TEXT/BLOB expression (ERROR 3757); compare a prefix instead, e.g. LEFT(${info.name}, n).`,
      );
    if (existing) notes.push(`Existing index ${existing.name} already indexes this expression.`);
    else if (problems.length > 0) notes.push(...problems.map((problem) => `No functional index: ${problem}`));
    else {
      const indexName = uniqueName(
        `idx_${table.name}_${token}_${columnNames.join('_')}`,
        table.indexes.map((index) => index.name),
      );
      suggestions.push({
        kind: 'functional-index',
        equivalent: true,
        ddl: [
          `ALTER TABLE ${quoteIdentifier(table.name)} ADD INDEX ${quoteIdentifier(indexName)} (${keyPartsSql(parts)});`,
        ],
        indexName,
        ...(decimalQuery ? { rewrittenSql: decimalQuery } : {}),
        ...(castCheck ? { castCheck } : {}),
        notes: [
          decimalQuery
            ? `${expression} is a DECIMAL: MySQL uses this index only when the constant is written as a decimal (the rewritten query; same rows, an integer converts to DECIMAL exactly).`
            : `Only queries that write the same expression, ${expression}, use this index; the query can stay as it is.`,
          ...(json === 'unquoted'
            ? [
                `JSON values are indexed as CAST(… AS CHAR(${JSON_CHAR_LENGTH})) COLLATE utf8mb4_bin (without the COLLATE the index is never used); creation fails (ERROR 3751) if a stored value is longer.`,
              ]
            : []),
          ...expressionNotes,
        ],
      });
    }
  } else if (caps.functionalIndexes && !virtualIndexed) {
    // Said above.
  } else if (caps.functionalIndexes && !joinOrLike) {
    notes.push(
      `A functional index is not used for a CONCAT() with a string constant on ${flavorName(flavor)}: index a generated column and name it in the query.`,
    );
  } else if (caps.functionalIndexes) {
    notes.push(
      `A functional index is not used for ${/LIKE/.test(operator) ? 'LIKE' : 'a join condition'} on ${flavorName(flavor)}: index a generated column and name it in the query.`,
    );
  }

  if (caps.indexedVirtualColumns) {
    const type = generatedColumnType(wrapped, info, table);
    if (!type.ok) notes.push(`No generated column proposed: ${type.reason}.`);
    else {
      const columnName = uniqueName(
        `${columnNames.join('_')}_${token}`,
        table.columns.map((column) => column.name),
      );
      const parts: ProposedPart[] = [
        ...equalityColumns.map((name) => ({ column: name })),
        { column: columnName, ...generatedKeyPrefix(type.sql) },
      ];
      const indexName = uniqueName(
        `idx_${table.name}_${columnName}`,
        table.indexes.map((index) => index.name),
      );
      const storage = virtualIndexed ? 'VIRTUAL' : 'STORED';
      // MariaDB has no ->> operator (ERROR 1064 on 10.11): the column declares JSON_UNQUOTE(JSON_EXTRACT(…)).
      const arrow = wrapped.node;
      const declaredExpression =
        flavor === 'mariadb' && arrow.type === 'binary_expr' && arrow.operator === '->>' && isNode(arrow.left)
          ? `JSON_UNQUOTE(JSON_EXTRACT(${indexExpressionText(input.sql, arrow.left, flavor)}, ${indexExpressionText(input.sql, arrow.right as AstNode, flavor)}))`
          : expression;
      const suggestion: Suggestion = {
        kind: 'generated-column',
        equivalent: true,
        ddl: [
          `ALTER TABLE ${quoteIdentifier(table.name)} ADD COLUMN ${quoteIdentifier(columnName)} ${type.sql} GENERATED ALWAYS AS (${flavor === 'mariadb' && type.mariadbExpression ? type.mariadbExpression(declaredExpression) : declaredExpression}) ${storage}, ADD INDEX ${quoteIdentifier(indexName)} (${keyPartsSql(parts)});`,
        ],
        indexName,
        notes: [],
        ...(castCheck ? { castCheck } : {}),
      };
      const caveat = type.caveat?.(operator, otherValues(other));
      if (caveat) {
        suggestion.equivalent = false;
        suggestion.notes.push(caveat);
      }
      if (substitutes && decimalQuery) {
        suggestion.rewrittenSql = decimalQuery;
        suggestion.notes.push(
          `${flavorName(flavor)} substitutes ${expression} by the indexed column ${columnName}, but uses its index only when the constant is written as a decimal (the rewritten query; same rows).`,
        );
      } else if (substitutes) {
        suggestion.notes.push(
          `${flavorName(flavor)} substitutes ${expression} by the indexed column ${columnName}: the query can stay as it is.`,
        );
      } else {
        const edited = editStatement(
          input.sql,
          input.ast,
          wrapped.node,
          columnNode(first.qualifier, columnName),
          flavor,
        );
        if (edited) suggestion.rewrittenSql = edited.sql;
        suggestion.notes.push(
          caps.generatedColumnSubstitution
            ? `${flavorName(flavor)} does not substitute the expression by a generated column for ${!joinOrLike ? 'a CONCAT() with a string constant' : /LIKE/.test(operator) ? 'LIKE' : 'join conditions'}: the query must name ${columnName}.`
            : `${flavorName(flavor)} never substitutes an expression by a generated column (VIRTUAL or PERSISTENT): the query must name ${columnName}.`,
        );
      }
      if (type.string)
        suggestion.notes.push(
          "The column declares the expression's collation: with another collation the server could substitute it and return different rows.",
        );
      suggestion.notes.push(
        virtualIndexed
          ? 'A VIRTUAL column stores nothing in the rows; only the index takes space.'
          : `STORED because ${table.name} is ${table.engine}: MySQL indexes VIRTUAL columns only in InnoDB (ERROR 1478). Adding it rewrites the table and stores the value in every row.`,
        ...expressionNotes,
      );
      suggestions.push(suggestion);
    }
  }
  return { suggestions, notes };
}

/** Arithmetic whose result is DECIMAL: division, a decimal constant, or a DECIMAL column. */
function decimalValued(wrapped: WrappedAdviceInput['wrapped'], columns: readonly ResolvedColumn[]): boolean {
  if (wrapped.kind !== 'arithmetic') return false;
  if (wrapped.name === '/') return true;
  if (columns.some((column) => /^(decimal|numeric)$/i.test(column.info?.dataType ?? ''))) return true;
  let decimal = false;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isNode(value)) return;
    if (value.type === 'number' && /\./.test(String(value.value))) decimal = true;
    for (const key in value) if (key !== 'loc') visit(value[key]);
  };
  visit(wrapped.node);
  return decimal;
}

/** The statement with the integer constant(s) compared with the expression written as decimals (`300` → `300.0`). */
function decimalLiteralQuery(input: WrappedAdviceInput, other: AstNode): string | undefined {
  const asDecimal = (node: AstNode): AstNode | undefined => {
    const literal = literalOf(node);
    return literal?.kind === 'integer' ? numberNode(`${literal.value}.0`) : undefined;
  };
  if (other.type === 'expr_list' && Array.isArray(other.value)) {
    const items = (other.value as AstNode[]).map((item) => asDecimal(item) ?? item);
    if (!items.some((item, i) => item !== (other.value as AstNode[])[i])) return undefined;
    return editStatement(input.sql, input.ast, other, { ...other, value: items }, input.server.flavor)?.sql;
  }
  const replacement = asDecimal(other);
  return replacement
    ? editStatement(input.sql, input.ast, other, replacement, input.server.flavor)?.sql
    : undefined;
}

function flavorName(flavor: string): string {
  return flavor === 'mariadb' ? 'MariaDB' : flavor === 'percona' ? 'Percona Server' : 'MySQL';
}

function otherConstant(other: AstNode): boolean {
  if (other.type === 'expr_list' && Array.isArray(other.value))
    return other.value.every((item) => isConstant(item));
  return isConstant(other) || other.type === 'null';
}

const NUMERIC_OR_TEMPORAL_CAST =
  /\bAS\s+(SIGNED|UNSIGNED|DECIMAL|DEC|NUMERIC|INT|INTEGER|DOUBLE|FLOAT|REAL|DATE|DATETIME|TIME|YEAR)\b/i;

/**
 * CAST of a string column to a number or date: creating the index evaluates it for every stored
 * row, and one value that is not a number (or date) makes the DDL fail (MySQL 1366 / 3751, MariaDB
 * 1292) — offline the data is unknown, so say so and give the check to run first.
 */
function castRiskNotes(input: WrappedAdviceInput, table: TableInfo): string[] {
  const cast = castCheckOf(input, table);
  if (!cast) return [];
  const text = indexExpressionText(input.sql, input.wrapped.node, input.server.flavor);
  const name = quoteIdentifier(cast.column);
  const temporal = /DATE|TIME|YEAR/.test(cast.target);
  const check = `SELECT COUNT(*) FROM ${quoteIdentifier(table.name)} WHERE ${name} IS NOT NULL AND ${castInvalidPredicate(name, cast.target)}`;
  return [
    `Risk: building the index computes ${text} for every stored row; if any ${cast.column} is not a valid ${temporal ? 'date/time' : 'number'}, the DDL fails (MySQL ERROR 1366 / 3751, MariaDB ERROR 1292) and later writes of such values fail too. Check first (0 means safe): ${check}${temporal ? `; then SHOW WARNINGS after SELECT COUNT(${castExpression(name, cast.target)}) FROM ${quoteIdentifier(table.name)}: a value with trailing text ('2024-01-02abc') converts with warning 1292, which fails the DDL too (0 warnings means safe)` : ''}`,
  ];
}

const castExpression = (name: string, target: string): string =>
  `CAST(${name} AS ${target === 'YEAR' ? 'SIGNED' : target})`;

/** The string column and numeric/temporal target of a CAST the DDL would index, if any. */
function castCheckOf(input: WrappedAdviceInput, table: TableInfo): CastCheck | undefined {
  if (input.wrapped.kind !== 'cast') return undefined;
  const text = indexExpressionText(input.sql, input.wrapped.node, input.server.flavor);
  const target = NUMERIC_OR_TEMPORAL_CAST.exec(text)?.[1]?.toUpperCase();
  const source = input.columns.find((column) => column.info && isStringInfo(column.info.dataType));
  if (!target || !source?.info) return undefined;
  return { table: table.name, column: source.info.name, target };
}

function isStringInfo(dataType: string): boolean {
  return /char|text|enum|set/i.test(dataType);
}

function commonExpressionNotes(
  input: WrappedAdviceInput,
  dataType: string,
  equalityColumns: readonly string[],
): string[] {
  const notes: string[] = [];
  const distinct = LOW_CARDINALITY[input.wrapped.name];
  if (distinct !== undefined && input.wrapped.kind === 'function') {
    notes.push(
      equalityColumns.length > 0
        ? `${input.wrapped.name}() has at most ${distinct} distinct values, so the index leads with the query's equality column${equalityColumns.length > 1 ? 's' : ''} (${equalityColumns.join(', ')}).`
        : `${input.wrapped.name}() has at most ${distinct} distinct values: on its own this index is weak (each value is about 1/${distinct} of the table); prefer a composite with an equality column of the query, or a range on the column when one period is meant.`,
    );
  }
  if (dataType.toLowerCase() === 'timestamp' && input.wrapped.kind === 'function')
    notes.push(
      'The column is a TIMESTAMP: the indexed value depends on the session time_zone when rows were written and read; clients with different time zones get wrong rows from the index.',
    );
  return notes;
}

/** Bare columns of the same table compared with a constant by `=` elsewhere in the same AND chain. */
/** Whether a predicate is a conjunct of its clause, once per predicate node (asked for every finding's every site). */
const conjuncts = new WeakMap<AstNode, boolean>();
function conjunctOf(ast: AstNode, node: AstNode): boolean {
  let known = conjuncts.get(node);
  if (known === undefined) {
    const ancestors = ancestorsOf(ast, node);
    known = ancestors !== undefined && isConjunct(ancestors);
    conjuncts.set(node, known);
  }
  return known;
}

function equalityColumnsOf(input: WrappedAdviceInput, table: TableInfo, first: ResolvedColumn): string[] {
  const wrappedColumns = new Set(
    input.columns.map((column) => (column.info?.name ?? column.column).toLowerCase()),
  );
  const result: string[] = [];
  for (const site of input.sites) {
    if (site === input.site || site.scope !== input.site.scope || site.operator !== '=') continue;
    if (site.clause !== 'where' && site.clause !== 'on') continue;
    const [columnSide, valueSide] =
      isNode(site.left) && site.left.type === 'column_ref'
        ? [site.left, site.right]
        : [site.right, site.left];
    if (!isNode(columnSide) || columnSide.type !== 'column_ref' || !valueSide || !isConstant(valueSide))
      continue;
    if (!conjunctOf(input.ast, site.node)) continue;
    const [resolved] = input.resolveColumns(site, columnSide);
    if (!resolved?.info || resolved.table !== table || resolved.scopeTable !== first.scopeTable) continue;
    const name = resolved.info.name;
    if (!wrappedColumns.has(name.toLowerCase()) && !result.includes(name)) result.push(name);
  }
  return result;
}

/** The constants on the other side of a comparison (the items of an IN list or of BETWEEN's range). */
function otherValues(other: unknown): unknown[] {
  if (other === null || other === undefined) return [];
  return isNode(other) && other.type === 'expr_list' && Array.isArray(other.value) ? other.value : [other];
}
