// Structured view of the advice's `ALTER TABLE … ADD COLUMN … / ADD INDEX …` DDL, so changes can be combined per table.
//
// The one DROP it reads is an index extension: `DROP INDEX i, ADD INDEX i (longer key)` in one
// statement (the index design extends an existing index whose key is a left prefix of the one it
// wants). A DROP INDEX without an ADD of the same name in the same statement is refused: the export
// never removes an index on its own.
//
// Design note: node-sql-parser parses the advice's DDL into an ALTER AST, but it records no
// position per clause, prints expressions in its own spelling, and rejects valid forms the export
// must keep (MariaDB `PERSISTENT`, `IF NOT EXISTS` on indexes, `(expr) DESC` key parts). So the
// clause text comes from a small scanner: it splits the statement after `ALTER TABLE name` at
// top-level commas (outside quotes, backticks, comments and parentheses), then reads each clause's
// leading keywords. When node-sql-parser does parse the statement, its AST is the cross-check: the
// same number of ADD clauses with the same column and index names, or the DDL is refused.

import type { Flavor } from '../flavors/capabilities.js';
import { isNode } from '../sql/ast.js';
import { parseStatement } from '../sql/parse.js';

/** One key part: a column (optionally a prefix) or a functional expression (text inside its parentheses). */
export type KeyPart =
  | { column: string; prefixLength: number | null; descending: boolean }
  | { expression: string; descending: boolean };

/** A generated column's expression and storage. */
export interface Generated {
  expression: string;
  stored: boolean;
}

/** One ADD clause of an ALTER TABLE. */
export type AlterClause =
  | {
      kind: 'add-column';
      name: string;
      /** Everything after the column name, as written (type, charset, GENERATED … VIRTUAL). */
      definition: string;
      generated: Generated | null;
    }
  | { kind: 'add-index'; name: string | null; unique: boolean; parts: KeyPart[] }
  /** Only as half of an extension: the same statement adds an index of this name again. */
  | { kind: 'drop-index'; name: string };

/** A parsed ALTER TABLE. `checkedBy` says whether node-sql-parser confirmed the clause structure. */
export interface ParsedAlter {
  schema: string | null;
  table: string;
  clauses: AlterClause[];
  checkedBy: 'node-sql-parser' | 'scanner';
}

/** Result of parsing: the structure or a reason it cannot be combined safely. */
export type AlterParseResult = { ok: true; alter: ParsedAlter } | { ok: false; reason: string };

interface Token {
  text: string;
  /** Identifier value (unquoted) for bare words and backticked names. */
  ident: string | null;
  start: number;
  end: number;
}

/** Tokens of `sql` at depth 0 and their positions; nested parentheses are single `(...)` tokens. */
function scan(sql: string): Token[] | string {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const char = sql[i]!;
    if (/\s/.test(char)) {
      i++;
      continue;
    }
    if (sql.startsWith('--', i) || char === '#') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end + 1;
      continue;
    }
    if (sql.startsWith('/*', i)) {
      const end = sql.indexOf('*/', i + 2);
      if (end < 0) return 'unterminated comment';
      i = end + 2;
      continue;
    }
    const start = i;
    if (char === '`' || char === "'" || char === '"') {
      const end = quotedEnd(sql, i);
      if (end < 0) return `unterminated ${char} quote`;
      const text = sql.slice(start, end);
      tokens.push({
        text,
        ident: char === '`' ? text.slice(1, -1).replace(/``/g, '`') : null,
        start,
        end,
      });
      i = end;
      continue;
    }
    if (char === '(') {
      const end = groupEnd(sql, i);
      if (end < 0) return 'unbalanced parentheses';
      tokens.push({ text: sql.slice(start, end), ident: null, start, end });
      i = end;
      continue;
    }
    if (char === ')') return 'unbalanced parentheses';
    const word = /^[A-Za-z0-9_$]+/.exec(sql.slice(i));
    if (word) {
      tokens.push({ text: word[0], ident: word[0], start, end: i + word[0].length });
      i += word[0].length;
      continue;
    }
    tokens.push({ text: char, ident: null, start, end: i + 1 });
    i++;
  }
  return tokens;
}

function quotedEnd(sql: string, start: number): number {
  const quote = sql[start];
  for (let i = start + 1; i < sql.length; i++) {
    const char = sql[i];
    if (char === '\\' && quote !== '`') i++;
    else if (char === quote) {
      if (sql[i + 1] === quote) i++;
      else return i + 1;
    }
  }
  return -1;
}

/** End (exclusive) of the parenthesized group opening at `start`. */
function groupEnd(sql: string, start: number): number {
  let depth = 0;
  for (let i = start; i < sql.length; i++) {
    const char = sql[i];
    if (char === '`' || char === "'" || char === '"') {
      const end = quotedEnd(sql, i);
      if (end < 0) return -1;
      i = end - 1;
    } else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return i + 1;
  }
  return -1;
}

/** Split `text` at top-level commas (outside quotes and parentheses). */
export function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '`' || char === "'" || char === '"') {
      const end = quotedEnd(text, i);
      if (end < 0) break;
      i = end - 1;
    } else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === ',' && depth === 0) {
      parts.push(text.slice(last, i).trim());
      last = i + 1;
    }
  }
  parts.push(text.slice(last).trim());
  return parts.filter((part) => part.length > 0);
}

const upper = (token: Token | undefined): string => (token?.ident ?? token?.text ?? '').toUpperCase();

function stripParens(group: string): string {
  return group.slice(1, -1).trim();
}

function parseKeyParts(group: string): KeyPart[] | string {
  const parts: KeyPart[] = [];
  for (const partText of splitTopLevel(stripParens(group))) {
    const tokens = scan(partText);
    if (typeof tokens === 'string') return tokens;
    const last = upper(tokens[tokens.length - 1]);
    const descending = last === 'DESC';
    const body = last === 'DESC' || last === 'ASC' ? tokens.slice(0, -1) : tokens;
    const [first, second] = body;
    if (!first) return `empty key part in ${group}`;
    if (first.text.startsWith('(') && body.length === 1) {
      parts.push({ expression: stripParens(first.text), descending });
    } else if (first.ident !== null && body.length <= 2) {
      const prefix = second ? /^\(\s*(\d+)\s*\)$/.exec(second.text) : null;
      if (second && !prefix) return `unsupported key part ${partText}`;
      parts.push({ column: first.ident, prefixLength: prefix ? Number(prefix[1]) : null, descending });
    } else return `unsupported key part ${partText}`;
  }
  return parts.length > 0 ? parts : `no key parts in ${group}`;
}

function parseClause(text: string): AlterClause | 'option' | string {
  const tokens = scan(text);
  if (typeof tokens === 'string') return tokens;
  let i = 0;
  const word = (): string => upper(tokens[i]);
  if (word() === 'ALGORITHM' || word() === 'LOCK') return 'option';
  if (word() === 'DROP' && (upper(tokens[1]) === 'INDEX' || upper(tokens[1]) === 'KEY')) {
    i = 2;
    if (word() === 'IF' && upper(tokens[3]) === 'EXISTS') i = 4;
    const name = tokens[i];
    if (!name || name.ident === null || i + 1 !== tokens.length)
      return `unsupported DROP INDEX clause: ${text}`;
    return { kind: 'drop-index', name: name.ident };
  }
  if (word() !== 'ADD') return `only ADD COLUMN and ADD INDEX clauses can be combined, not: ${text}`;
  i++;
  const skipIfNotExists = (): void => {
    if (word() === 'IF' && upper(tokens[i + 1]) === 'NOT' && upper(tokens[i + 2]) === 'EXISTS') i += 3;
  };
  let unique = false;
  if (word() === 'UNIQUE') {
    unique = true;
    i++;
  }
  if (unique || word() === 'INDEX' || word() === 'KEY') {
    if (word() === 'INDEX' || word() === 'KEY') i++;
    skipIfNotExists();
    let name: string | null = null;
    const candidate = tokens[i];
    if (candidate && candidate.ident !== null && upper(candidate) !== 'USING') {
      name = candidate.ident;
      i++;
    }
    if (word() === 'USING') i += 2;
    const group = tokens[i];
    if (!group?.text.startsWith('(')) return `missing key parts in: ${text}`;
    const parts = parseKeyParts(group.text);
    if (typeof parts === 'string') return parts;
    if (i + 1 < tokens.length) return `index options are not supported: ${text}`;
    return { kind: 'add-index', name, unique, parts };
  }
  if (['PRIMARY', 'FOREIGN', 'FULLTEXT', 'SPATIAL', 'CONSTRAINT', 'CHECK'].includes(word()))
    return `only ADD COLUMN and ADD INDEX clauses can be combined, not: ${text}`;
  if (word() === 'COLUMN') i++;
  skipIfNotExists();
  const nameToken = tokens[i];
  if (!nameToken || nameToken.ident === null) return `missing column name in: ${text}`;
  const rest = tokens.slice(i + 1);
  if (rest.some((token) => ['FIRST', 'AFTER'].includes(upper(token))))
    return `column positions (FIRST/AFTER) are not supported: ${text}`;
  const definition = rest.length > 0 ? text.slice(rest[0]!.start).trim() : '';
  if (!definition) return `missing column definition in: ${text}`;
  let generated: Generated | null = null;
  const as = rest.findIndex((token) => upper(token) === 'AS');
  const group = as >= 0 ? rest[as + 1] : undefined;
  if (group?.text.startsWith('(')) {
    const storage = rest.slice(as + 2).map(upper);
    generated = {
      expression: stripParens(group.text),
      stored: storage.includes('STORED') || storage.includes('PERSISTENT'),
    };
  }
  return { kind: 'add-column', name: nameToken.ident, definition, generated };
}

/**
 * Parse one `ALTER TABLE t ADD …, ADD …;` statement into its ADD clauses. ALGORITHM/LOCK options
 * are dropped (the export decides them). Anything else (DROP, MODIFY, positions) is refused.
 */
export function parseAlterTable(sql: string, flavor: Flavor): AlterParseResult {
  const text = sql.trim().replace(/;\s*$/, '');
  const tokens = scan(text);
  if (typeof tokens === 'string') return { ok: false, reason: tokens };
  if (upper(tokens[0]) !== 'ALTER' || upper(tokens[1]) !== 'TABLE')
    return { ok: false, reason: 'not an ALTER TABLE statement' };
  let i = 2;
  const first = tokens[i];
  if (!first || first.ident === null) return { ok: false, reason: 'missing table name' };
  let schema: string | null = null;
  let table = first.ident;
  i++;
  if (tokens[i]?.text === '.' && tokens[i + 1]?.ident) {
    schema = table;
    table = tokens[i + 1]!.ident!;
    i += 2;
  }
  const body = tokens[i];
  if (!body) return { ok: false, reason: 'no clauses' };
  const clauses: AlterClause[] = [];
  for (const clauseText of splitTopLevel(text.slice(body.start))) {
    const clause = parseClause(clauseText);
    if (clause === 'option') continue;
    if (typeof clause === 'string') return { ok: false, reason: clause };
    clauses.push(clause);
  }
  if (!clauses.some((clause) => clause.kind !== 'drop-index')) return { ok: false, reason: 'no ADD clauses' };
  for (const clause of clauses) {
    if (clause.kind !== 'drop-index') continue;
    const readded = clauses.some(
      (other) => other.kind === 'add-index' && other.name?.toLowerCase() === clause.name.toLowerCase(),
    );
    if (!readded)
      return {
        ok: false,
        reason: `DROP INDEX ${clause.name} is exported only when the same statement adds ${clause.name} again (an extension)`,
      };
  }
  const checked = crossCheck(text, flavor, clauses);
  if (checked === 'mismatch')
    return { ok: false, reason: 'the statement is ambiguous (node-sql-parser reads other clauses)' };
  return { ok: true, alter: { schema, table, clauses, checkedBy: checked } };
}

/** Compare with node-sql-parser's AST when it parses the statement. */
function crossCheck(
  sql: string,
  flavor: Flavor,
  clauses: readonly AlterClause[],
): 'node-sql-parser' | 'scanner' | 'mismatch' {
  const parsed = parseStatement(sql, flavor);
  if (!parsed.ok || parsed.ast.type !== 'alter' || !Array.isArray(parsed.ast.expr)) return 'scanner';
  const adds = (parsed.ast.expr as unknown[]).filter(
    (entry) => isNode(entry) && entry.action === 'add',
  ) as Record<string, unknown>[];
  const added = clauses.filter(
    (clause): clause is Exclude<AlterClause, { kind: 'drop-index' }> => clause.kind !== 'drop-index',
  );
  if (adds.length !== added.length) return 'mismatch';
  for (const [index, clause] of added.entries()) {
    const node = adds[index]!;
    if (clause.kind === 'add-column') {
      const column = node.column;
      if (node.resource !== 'column' || !isNode(column) || String(column.column) !== clause.name)
        return 'mismatch';
      if (Boolean(node.generated) !== (clause.generated !== null)) return 'mismatch';
    } else {
      const constraint = isNode(node.create_definitions) ? node.create_definitions : node;
      const name = constraint.index ?? null;
      if (node.resource !== 'index' && node.resource !== 'constraint') return 'mismatch';
      if ((name === null ? null : String(name)) !== clause.name) return 'mismatch';
      const definition = constraint.definition;
      if (Array.isArray(definition) && definition.length !== clause.parts.length) return 'mismatch';
    }
  }
  return 'node-sql-parser';
}

/** Identifier in backticks (always quoted in exported DDL). */
export function quoteName(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

/** Key parts as DDL: columns quoted, expressions in their own parentheses. */
export function keyPartsText(parts: readonly KeyPart[]): string {
  return parts
    .map((part) => {
      const body =
        'column' in part
          ? `${quoteName(part.column)}${part.prefixLength ? `(${part.prefixLength})` : ''}`
          : `(${part.expression})`;
      return part.descending ? `${body} DESC` : body;
    })
    .join(', ');
}

/**
 * Canonical form of an expression for comparisons: no backticks, whitespace or case, outer
 * parentheses removed, and the spellings the servers store folded to one: `DATE(x)` is stored as
 * `cast(x as date)` (both servers), `LOWER`/`UPPER` as `lcase`/`ucase` (MariaDB), string literals
 * with a character-set introducer (`_utf8mb4'a'`).
 */
export function canonicalExpression(text: string): string {
  let result = text
    .replace(/_(utf8mb4|utf8mb3|utf8|latin1|binary|ascii)(?=')/gi, '')
    .replace(/[`\s]/g, '')
    .toLowerCase()
    .replace(/(^|[^a-z0-9_$])lcase\(/g, '$1lower(')
    .replace(/(^|[^a-z0-9_$])ucase\(/g, '$1upper(');
  result = foldDateCalls(result);
  while (result.startsWith('(') && result.endsWith(')') && groupEnd(result, 0) === result.length)
    result = result.slice(1, -1);
  return result;
}

/** `date(x)` → `cast(xasdate)` in a whitespace-free, lower-case expression (the servers' stored form). */
function foldDateCalls(text: string): string {
  let result = text;
  for (let at = result.search(/(^|[^a-z0-9_$.])date\(/); at !== -1;) {
    const start = result[at] === 'd' && result.startsWith('date(', at) ? at : at + 1;
    const open = start + 'date'.length;
    const end = groupEnd(result, open);
    if (end <= open) break;
    result = `${result.slice(0, start)}cast(${result.slice(open + 1, end - 1)}asdate)${result.slice(end)}`;
    const next = result.slice(start + 5).search(/(^|[^a-z0-9_$.])date\(/);
    at = next === -1 ? -1 : start + 5 + next;
  }
  return result;
}

/** Canonical key of one key part. */
export function keyPartKey(part: KeyPart): string {
  const direction = part.descending ? ' desc' : '';
  return 'column' in part
    ? `c:${part.column.toLowerCase()}${part.prefixLength ? `(${part.prefixLength})` : ''}${direction}`
    : `e:${canonicalExpression(part.expression)}${direction}`;
}
