// Parsing one statement with node-sql-parser in the flavor's dialect; errors become data, not exceptions.

import {
  collapseRedundantParentheses,
  elideInsertRows,
  MAX_NESTING_DEPTH,
  nestingDepth,
  rebalanceBooleanChains,
  TOO_COMPLEX,
} from './limits.js';
import { associateAndOr, associateXor, mayHaveXor, mayMixAndOr } from './precedence.js';
import mysqlBuild from 'node-sql-parser/build/mysql.js';
import mariadbBuild from 'node-sql-parser/build/mariadb.js';
import type { Flavor } from '../flavors/capabilities.js';
import { elideConditionRuns, restoreConditionRuns } from './condition-runs.js';
import { elideLiteralLists, restoreLiteralLists } from './literal-lists.js';
import { parseTolerantly, type ToleratedFacts } from './tolerant.js';
import { equivalentForm, offsetMapper, restoreEquivalent } from './equivalents.js';
import type { AstNode } from './ast.js';

export type ParseResult =
  | {
      ok: true;
      ast: AstNode;
      dialect: 'MySQL' | 'MariaDB';
      tolerated?: ToleratedFacts;
      /** Constructs parsed in an equivalent form (equivalents.ts), positions those of the statement. */
      equivalents?: string[];
      /** A large INSERT … VALUES: only the first `kept` of `total` rows were parsed (limits.ts). */
      elidedRows?: { kept: number; total: number };
    }
  | {
      ok: false;
      message: string;
      line: number;
      column: number;
      /** Set when the statement is beyond the documented limits (docs/parsing.md), not invalid. */
      code?: typeof TOO_COMPLEX;
    };

type ParserInstance = {
  astify(sql: string, options: object): unknown;
  sqlify(ast: unknown, options: object): string;
};
let parsers: Partial<Record<'MySQL' | 'MariaDB', ParserInstance>> = {};

function parserFor(dialect: 'MySQL' | 'MariaDB'): ParserInstance {
  let parser = parsers[dialect];
  if (!parser) {
    const build = (dialect === 'MySQL' ? mysqlBuild : mariadbBuild) as unknown as {
      Parser: new () => ParserInstance;
    };
    parser = new build.Parser();
    parsers = { ...parsers, [dialect]: parser };
  }
  return parser;
}

/** The node-sql-parser dialect for a flavor. Percona Server speaks MySQL. */
export function dialectFor(flavor: Flavor): 'MySQL' | 'MariaDB' {
  return flavor === 'mariadb' ? 'MariaDB' : 'MySQL';
}

function astifyText(sql: string, dialect: 'MySQL' | 'MariaDB'): AstNode | undefined {
  const result = parserFor(dialect).astify(sql, {
    database: dialect,
    parseOptions: { includeLocations: true },
  });
  const ast = Array.isArray(result) ? result[0] : result;
  return ast && typeof ast === 'object' ? (ast as AstNode) : undefined;
}

/**
 * Parse with the grammar's slowest inputs replaced by cheap stand-ins and rebuilt afterwards: long
 * literal `IN (…)` lists blanked after their first item (`literal-lists.ts`) and runs of plain
 * comparisons replaced by one placeholder column each (`condition-runs.ts`). Same AST, same
 * positions, several times faster on such SQL. Anything unexpected — the replaced text fails, a
 * list or run cannot be matched — parses the original text instead, so errors and results are
 * always those of the full parse.
 */
function astify(sql: string, dialect: 'MySQL' | 'MariaDB'): AstNode | undefined {
  // The run reader reproduces the MySQL grammar's chains; the MariaDB grammar (only a fallback) parses as written.
  const runs = dialect === 'MySQL' ? elideConditionRuns(sql) : undefined;
  const lists = elideLiteralLists(runs?.text ?? sql);
  if (lists || runs) {
    try {
      const ast = astifyText(lists?.text ?? runs?.text ?? sql, dialect);
      // Lists first, at the positions of the text they were blanked in; then the runs' restore
      // moves every position back to the statement's own.
      if (
        ast &&
        (!lists || restoreLiteralLists(ast, lists)) &&
        (!runs || restoreConditionRuns(ast, runs, sql))
      )
        return ast;
    } catch {
      // Parse the original below: its error (or result) is the one that counts.
    }
  }
  return astifyText(sql, dialect);
}

/**
 * Parse one statement. Positions in the AST (`loc`) are relative to `sql`.
 * A parse error is returned with its 1-based position and a short message.
 *
 * MariaDB: node-sql-parser's MariaDB grammar records no positions for binary expressions, CAST or
 * CASE, so findings on them could not be placed. Statements are therefore parsed with the MySQL
 * grammar first (the DML both servers share parses the same way, with positions), and with the
 * MariaDB grammar only when the MySQL one rejects them (MariaDB-only syntax such as WAIT n).
 *
 * A statement a grammar rejects is tried once more without the constructs `tolerant.ts` recognises
 * (GROUP BY … DESC, UPDATE IGNORE …, `FOR SHARE` / `OF t` locking clauses); they come back as
 * `tolerated` facts, positions unchanged (rule LCK001 reads the locking clauses from there).
 */
export function parseStatement(
  sql: string,
  flavor: Flavor,
  options: { pipesAsConcat?: boolean } = {},
): ParseResult {
  // Deep input (docs/parsing.md, "Limits"): redundant parentheses blanked, long boolean chains
  // balanced, and what is still too deep for the grammar's recursion reported as such.
  const elided = elideInsertRows(sql);
  const text = collapseRedundantParentheses(elided?.text ?? sql);
  if (text !== sql) {
    const depth = nestingDepth(text);
    if (depth > MAX_NESTING_DEPTH) return tooComplex(`${depth} levels of parentheses`);
  }
  const result = parseText(text, flavor);
  // `||` is OR unless the session has PIPES_AS_CONCAT (the analysis passes it; off by default).
  if (result.ok && mayHaveXor(text))
    associateXor(result.ast, { pipesAsConcat: options.pipesAsConcat === true });
  if (result.ok && mayMixAndOr(text)) associateAndOr(result.ast);
  if (result.ok && manyBooleanOperators(text)) rebalanceBooleanChains(result.ast);
  if (result.ok && elided) return { ...result, elidedRows: { kept: elided.kept, total: elided.total } };
  return result;
}

function tooComplex(what: string): ParseResult {
  return {
    ok: false,
    code: TOO_COMPLEX,
    message: `${TOO_COMPLEX}: the statement is too complex to analyse (${what}; the limit is ${MAX_NESTING_DEPTH} levels of nesting). Split it, or move long OR lists into IN (…) lists.`,
    line: 1,
    column: 1,
  };
}

function manyBooleanOperators(sql: string): boolean {
  if (sql.length < 1000) return false;
  if (sql.length > 5_000_000) return true;
  let count = 0;
  const pattern = /\b(?:or|and|xor)\b|\|\||&&/gi;
  while (pattern.exec(sql) !== null) if (++count > 128) return true;
  return false;
}

/** A stack overflow in the grammar's recursion (the input is deep, not invalid). */
function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

function parseText(sql: string, flavor: Flavor): ParseResult {
  const dialect = dialectFor(flavor);
  if (dialect === 'MariaDB') {
    try {
      const ast = astify(sql, 'MySQL');
      if (ast) return { ok: true, ast, dialect };
    } catch (error) {
      if (isStackOverflow(error)) return tooComplex('nesting deeper than the parser can follow');
      // The MariaDB grammar reads `UPDATE IGNORE t` as table IGNORE aliased t: tolerate first.
      const tolerated = parseRejected(sql, 'MySQL', flavor);
      if (tolerated) return { ok: true, dialect, ...tolerated };
    }
  }
  try {
    const ast = astify(sql, dialect);
    if (!ast) return { ok: false, message: 'Empty statement', line: 1, column: 1 };
    return { ok: true, ast, dialect };
  } catch (error) {
    if (isStackOverflow(error)) return tooComplex('nesting deeper than the parser can follow');
    const tolerated = parseRejected(sql, dialect, flavor);
    if (tolerated) return { ok: true, dialect, ...tolerated };
    return { ok: false, ...describeParseError(error, sql) };
  }
}

type Rescued = { ast: AstNode; tolerated?: ToleratedFacts; equivalents?: string[] };

/**
 * A statement the grammar rejected: parsed without the constructs `tolerant.ts` blanks, else in its
 * equivalent form (`equivalents.ts`, with the tolerant scan once more on that form). Positions, in the
 * AST and in the tolerated facts, are those of `sql`. Undefined when neither reads it.
 */
function parseRejected(sql: string, dialect: 'MySQL' | 'MariaDB', flavor: Flavor): Rescued | undefined {
  const strict = (text: string) => astify(text, dialect);
  const tolerated = parseTolerantly(sql, strict, { lockingReads: true });
  if (tolerated) return tolerated;
  const form = equivalentForm(sql, flavor === 'mariadb' ? 'mariadb' : 'mysql');
  if (!form) return undefined;
  let rescued: Rescued | undefined;
  try {
    const ast = strict(form.text);
    rescued = ast ? { ast } : undefined;
  } catch {
    rescued = parseTolerantly(form.text, strict, { lockingReads: true });
  }
  if (!rescued || !restoreEquivalent(rescued.ast, form, sql)) return undefined;
  if (rescued.tolerated) {
    const toOriginal = offsetMapper(form.edits);
    const remap = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(remap);
      else if (value && typeof value === 'object') {
        const mark = value as { start?: unknown; end?: unknown; text?: unknown };
        if (typeof mark.start === 'number' && typeof mark.end === 'number') {
          mark.start = toOriginal(mark.start, 'start');
          mark.end = toOriginal(mark.end, 'end');
          if (typeof mark.text === 'string') mark.text = sql.slice(mark.start as number, mark.end as number);
        }
      }
    };
    Object.values(rescued.tolerated).forEach(remap);
  }
  return { ...rescued, equivalents: form.constructs };
}

const FRAGMENT_CACHE_SIZE = 2000;
const fragmentCache = new Map<string, ParseResult>();

/**
 * Parse a small SQL fragment the advisor generates to check itself (a rewritten predicate, an index
 * expression). node-sql-parser costs about 1–2 ms per call however small the input, and the same
 * fragments recur across findings and re-analyses, so results are memoized (bounded, LRU). The
 * result is shared: callers must not mutate it. User statements go through parseStatement, uncached.
 */
export function parseFragment(sql: string, flavor: Flavor): ParseResult {
  const key = `${dialectFor(flavor)}\u0000${sql}`;
  const cached = fragmentCache.get(key);
  if (cached) {
    fragmentCache.delete(key);
    fragmentCache.set(key, cached);
    return cached;
  }
  const result = parseStatement(sql, flavor);
  fragmentCache.set(key, result);
  if (fragmentCache.size > FRAGMENT_CACHE_SIZE)
    fragmentCache.delete(fragmentCache.keys().next().value as string);
  return result;
}

const STATEMENT_TYPES = new Set([
  'select',
  'insert',
  'replace',
  'update',
  'delete',
  'create',
  'alter',
  'drop',
  'use',
  'set',
]);

/**
 * Print an AST back to SQL in the flavor's dialect. node-sql-parser only prints statements, so an
 * expression is printed as the single item of a SELECT list and the `SELECT ` prefix is removed.
 */
export function printSql(ast: AstNode, flavor: Flavor): string {
  const parser = parserFor(dialectFor(flavor));
  const options = { database: dialectFor(flavor) };
  if (typeof ast.type === 'string' && STATEMENT_TYPES.has(ast.type)) return parser.sqlify(ast, options);
  const wrapper = { type: 'select', columns: [{ expr: ast, as: null }], from: null, where: null };
  return parser.sqlify(wrapper, options).replace(/^SELECT /, '');
}

function describeParseError(error: unknown, sql: string): { message: string; line: number; column: number } {
  const details = error as {
    location?: { start?: { line?: number; column?: number; offset?: number } };
    found?: unknown;
  };
  const start = details.location?.start;
  const line = start?.line ?? 1;
  const column = start?.column ?? 1;
  const offset = start?.offset ?? 0;
  const near = sql.slice(offset, offset + 24).split('\n')[0] ?? '';
  // No position in the text: callers report line/column relative to the whole script.
  const message = near ? `Syntax error near '${near}'.` : 'Syntax error: unexpected end of statement.';
  return { message, line, column };
}
