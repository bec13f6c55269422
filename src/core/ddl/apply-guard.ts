// Which statements "Apply DDL" and what-if may run: the index and generated-column changes the advisor produces.
/*
 * Design note.
 * Applying DDL is an explicit write on the user's server, so the accepted list is an allow-list of
 * the shapes the advisor and the export produce (suggestions and their rollback), checked on the
 * tokens of src/core/sql/lexer.ts — the same lexer as the statement guard, which reads quotes the
 * way the server does under the session's sql_mode (`COMMENT 'x\', DROP COLUMN s #'` is one string
 * by default and a DROP COLUMN under NO_BACKSLASH_ESCAPES). When the sql_mode is not known, every
 * reading is checked and all must pass:
 *   CREATE [UNIQUE|FULLTEXT|SPATIAL] INDEX [IF NOT EXISTS] name ON [db.]table (…) [index options]
 *   ALTER TABLE [db.]table clause [, clause …] where every clause is one of
 *     ADD [UNIQUE|FULLTEXT|SPATIAL] [INDEX|KEY] [IF NOT EXISTS] [name] (…) [index options]
 *     ADD [COLUMN] [IF NOT EXISTS] name type [(…)] [attributes] [GENERATED ALWAYS] AS (…)
 *         [VIRTUAL|STORED|PERSISTENT] [NULL|NOT NULL] [COMMENT 'text'] [INVISIBLE]
 *     DROP {INDEX|KEY} [IF EXISTS] name
 *     DROP [COLUMN] [IF EXISTS] name       (the caller checks on the server that it is generated)
 *     ALTER {INDEX|KEY} name {VISIBLE|INVISIBLE|IGNORED|NOT IGNORED}
 *     ALGORITHM [=] word, LOCK [=] word
 * Anything else is refused with the reason: PARTITION BY, REMOVE PARTITIONING, MODIFY, RENAME,
 * DML, several statements in one string, and comments of any kind (a `/*! … *\/` comment is
 * executed by the server, so it could hide any clause). Index options are a closed list.
 */

import { lexicalContexts, lexSql, type LexicalContext, type SqlToken } from '../sql/lexer.js';

/** One change a statement makes. */
export type DdlChange =
  | { kind: 'add-index'; name: string | null }
  | { kind: 'drop-index'; name: string }
  | { kind: 'index-visibility'; name: string }
  | { kind: 'add-generated-column'; name: string }
  | { kind: 'drop-column'; name: string }
  | { kind: 'algorithm' | 'lock' };

/** The verdict on one statement. */
export type DdlCheck =
  | {
      ok: true;
      kind: 'create-index' | 'alter-table';
      /** The table as written (`db`.`t`). */
      table: string;
      sql: string;
    }
  | { ok: false; reason: string };

/** {@link checkApplicableDdl} with what the statement changes (every reading of it). */
export type DdlAnalysis =
  | (Extract<DdlCheck, { ok: true }> & {
      /** Schema and table names, unquoted (schema null when not written). */
      target: { schema: string | null; table: string };
      changes: DdlChange[];
    })
  | Extract<DdlCheck, { ok: false }>;

type Token = SqlToken & { group?: Token[] };

const INDEX_OPTION_WORDS = new Set(['USING', 'BTREE', 'HASH', 'VISIBLE', 'INVISIBLE', 'IGNORED', 'NOT']);
const ALGORITHMS = new Set(['DEFAULT', 'INPLACE', 'COPY', 'INSTANT', 'NOCOPY']);
const LOCKS = new Set(['DEFAULT', 'NONE', 'SHARED', 'EXCLUSIVE']);
const TYPE_WORDS = new Set([
  'TINYINT',
  'SMALLINT',
  'MEDIUMINT',
  'INT',
  'INTEGER',
  'BIGINT',
  'DECIMAL',
  'NUMERIC',
  'FLOAT',
  'DOUBLE',
  'REAL',
  'BIT',
  'BOOL',
  'BOOLEAN',
  'DATE',
  'DATETIME',
  'TIMESTAMP',
  'TIME',
  'YEAR',
  'CHAR',
  'VARCHAR',
  'BINARY',
  'VARBINARY',
  'TINYTEXT',
  'TEXT',
  'MEDIUMTEXT',
  'LONGTEXT',
  'TINYBLOB',
  'BLOB',
  'MEDIUMBLOB',
  'LONGBLOB',
  'JSON',
]);
const TYPE_ATTRIBUTES = new Set(['UNSIGNED', 'SIGNED', 'ZEROFILL']);

const isWord = (token: Token | undefined, ...values: string[]): boolean =>
  token?.kind === 'word' && !token.group && values.includes(token.value);
const isPunct = (token: Token | undefined, value: string): boolean =>
  token?.kind === 'punct' && !token.group && token.value === value;
const isName = (token: Token | undefined): boolean =>
  token !== undefined && !token.group && (token.kind === 'word' || token.kind === 'quoted');
const nameOf = (token: Token): string => (token.kind === 'word' ? token.value.toLowerCase() : token.value);

/** Fold `( … )` into group tokens; a string when parentheses do not balance. */
function group(tokens: SqlToken[]): Token[] | string {
  const stack: Token[][] = [[]];
  const opens: SqlToken[] = [];
  for (const token of tokens) {
    if (token.kind === 'punct' && token.value === '(') {
      stack.push([]);
      opens.push(token);
    } else if (token.kind === 'punct' && token.value === ')') {
      const inner = stack.pop();
      const open = opens.pop();
      if (!inner || !open || stack.length === 0) return 'unbalanced parentheses';
      stack[stack.length - 1]!.push({ ...open, value: '(…)', end: token.end, group: inner });
    } else {
      stack[stack.length - 1]!.push(token);
    }
  }
  return stack.length === 1 ? stack[0]! : 'unbalanced parentheses';
}

/** `[db.]table` at `index`; returns the index after it, or -1. */
function tableRef(tokens: Token[], index: number): number {
  if (!isName(tokens[index])) return -1;
  if (isPunct(tokens[index + 1], '.')) return isName(tokens[index + 2]) ? index + 3 : -1;
  return index + 1;
}

/** Index options after the key part list: a closed list of words, `COMMENT 'text'`, `KEY_BLOCK_SIZE [=] n`. */
function indexOptionsOk(tokens: Token[], allowAlgorithmLock: boolean): boolean {
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    if (isWord(token, 'COMMENT')) {
      if (tokens[index + 1]?.kind !== 'string') return false;
      index += 1;
    } else if (
      isWord(token, 'KEY_BLOCK_SIZE') ||
      (allowAlgorithmLock && isWord(token, 'ALGORITHM', 'LOCK'))
    ) {
      if (isPunct(tokens[index + 1], '=')) index += 1;
      const value = tokens[index + 1];
      const allowed = isWord(token, 'KEY_BLOCK_SIZE')
        ? value?.kind === 'number'
        : isWord(value, ...(isWord(token, 'ALGORITHM') ? ALGORITHMS : LOCKS));
      if (!allowed) return false;
      index += 1;
    } else if (!isWord(token, ...INDEX_OPTION_WORDS)) {
      return false;
    }
  }
  return true;
}

/** `[IF NOT EXISTS]` / `[IF EXISTS]` at `index`; returns the index after it. */
function ifClause(tokens: Token[], index: number, not: boolean): number {
  if (!isWord(tokens[index], 'IF')) return index;
  if (not) return isWord(tokens[index + 1], 'NOT') && isWord(tokens[index + 2], 'EXISTS') ? index + 3 : -1;
  return isWord(tokens[index + 1], 'EXISTS') ? index + 2 : -1;
}

/** `[IF NOT EXISTS] [name] (…) options` of an index; the name (null when unnamed) or an error. */
function indexBody(tokens: Token[]): { name: string | null } | null {
  let index = ifClause(tokens, 0, true);
  if (index < 0) return null;
  let name: string | null = null;
  if (isName(tokens[index]) && !isWord(tokens[index], 'USING')) {
    name = nameOf(tokens[index]!);
    index += 1;
  }
  if (!tokens[index]?.group || tokens[index]!.group!.length === 0) return null;
  return indexOptionsOk(tokens.slice(index + 1), false) ? { name } : null;
}

/** `name type [(…)] [attributes] [GENERATED ALWAYS] AS (…) [VIRTUAL|STORED|PERSISTENT] …`. */
function generatedColumn(tokens: Token[]): string | null {
  let index = ifClause(tokens, 0, true);
  if (index < 0 || !isName(tokens[index])) return null;
  const name = nameOf(tokens[index]!);
  index += 1;
  if (!isWord(tokens[index], ...TYPE_WORDS)) return null;
  index += 1;
  if (tokens[index]?.group) index += 1;
  for (;;) {
    const token = tokens[index];
    if (isWord(token, ...TYPE_ATTRIBUTES)) index += 1;
    else if (isWord(token, 'CHARACTER') && isWord(tokens[index + 1], 'SET') && isName(tokens[index + 2]))
      index += 3;
    else if (isWord(token, 'CHARSET', 'COLLATE') && isName(tokens[index + 1])) index += 2;
    else break;
  }
  if (isWord(tokens[index], 'GENERATED')) {
    if (!isWord(tokens[index + 1], 'ALWAYS')) return null;
    index += 2;
  }
  if (!isWord(tokens[index], 'AS') || !tokens[index + 1]?.group) return null;
  index += 2;
  if (isWord(tokens[index], 'VIRTUAL', 'STORED', 'PERSISTENT')) index += 1;
  for (;;) {
    const token = tokens[index];
    if (token === undefined) return name;
    if (isWord(token, 'NULL', 'INVISIBLE', 'VISIBLE')) index += 1;
    else if (isWord(token, 'NOT') && isWord(tokens[index + 1], 'NULL')) index += 2;
    else if (isWord(token, 'COMMENT') && tokens[index + 1]?.kind === 'string') index += 2;
    else return null;
  }
}

const clauseList =
  'only ADD INDEX, ADD KEY, DROP INDEX, ALTER INDEX … VISIBLE/INVISIBLE, ADD or DROP of a generated column, ALGORITHM and LOCK clauses can be applied';

function clauseChange(clause: Token[], sql: string): DdlChange | string {
  const [first, second, third] = clause;
  const text = sql.slice(clause[0]!.start, clause[clause.length - 1]!.end);
  if (isWord(first, 'ALGORITHM', 'LOCK')) {
    const rest = clause.slice(1).filter((token) => !isPunct(token, '='));
    const values = isWord(first, 'ALGORITHM') ? ALGORITHMS : LOCKS;
    return rest.length === 1 && isWord(rest[0], ...values)
      ? { kind: first!.value === 'ALGORITHM' ? 'algorithm' : 'lock' }
      : `${first!.value} needs one of ${[...values].join(', ')}`;
  }
  if (isWord(first, 'DROP')) {
    if (isWord(second, 'INDEX', 'KEY')) {
      const at = ifClause(clause, 2, false);
      return at > 0 && isName(clause[at]) && clause.length === at + 1
        ? { kind: 'drop-index', name: nameOf(clause[at]!) }
        : 'malformed DROP INDEX';
    }
    const from = ifClause(clause, isWord(second, 'COLUMN') ? 2 : 1, false);
    if (
      from > 0 &&
      isName(clause[from]) &&
      clause.length === from + 1 &&
      !isWord(clause[from], 'PRIMARY', 'FOREIGN', 'CONSTRAINT', 'CHECK', 'PARTITION')
    ) {
      return { kind: 'drop-column', name: nameOf(clause[from]!) };
    }
    return `${clauseList}, not “${text}”`;
  }
  if (isWord(first, 'ALTER') && isWord(second, 'INDEX', 'KEY')) {
    const rest = clause.slice(4);
    const visibility =
      (rest.length === 0 && isWord(clause[3], 'VISIBLE', 'INVISIBLE', 'IGNORED')) ||
      (isWord(clause[3], 'NOT') && isWord(rest[0], 'IGNORED') && rest.length === 1);
    return isName(third) && visibility
      ? { kind: 'index-visibility', name: nameOf(third!) }
      : 'malformed ALTER INDEX: only VISIBLE, INVISIBLE, IGNORED or NOT IGNORED';
  }
  if (!isWord(first, 'ADD')) return `${clauseList}, not “${text}”`;
  if (isWord(second, 'INDEX', 'KEY')) {
    const body = indexBody(clause.slice(2));
    return body ? { kind: 'add-index', name: body.name } : 'malformed ADD INDEX';
  }
  if (isWord(second, 'UNIQUE', 'FULLTEXT', 'SPATIAL')) {
    const body = indexBody(clause.slice(isWord(third, 'INDEX', 'KEY') ? 3 : 2));
    return body ? { kind: 'add-index', name: body.name } : `malformed ADD ${second!.value} INDEX`;
  }
  if (isWord(second, 'PRIMARY', 'CONSTRAINT', 'FOREIGN', 'CHECK', 'PARTITION', 'PERIOD', 'SYSTEM')) {
    return `ADD ${second!.value} is not an index the advisor proposes; apply it with your own tools`;
  }
  const column = generatedColumn(clause.slice(isWord(second, 'COLUMN') ? 2 : 1));
  if (column) return { kind: 'add-generated-column', name: column };
  const definition = clause.map((token) => token.value);
  if (definition.includes('DEFAULT') || definition.includes('REFERENCES')) {
    return 'a generated column cannot have DEFAULT or REFERENCES';
  }
  return 'only generated columns (name type AS (expression) VIRTUAL|STORED) can be added by Apply DDL';
}

function analyzeTokens(sql: string, lexed: SqlToken[]): DdlAnalysis {
  if (lexed.some((token) => token.kind === 'punct' && token.value === ';')) {
    return { ok: false, reason: 'one statement at a time: remove the ";" inside the statement' };
  }
  const grouped = group(lexed);
  if (typeof grouped === 'string') return { ok: false, reason: grouped };
  const tokens = grouped;
  const target = (from: number, after: number): { schema: string | null; table: string } =>
    after - from === 3
      ? { schema: nameOf(tokens[from]!), table: nameOf(tokens[from + 2]!) }
      : { schema: null, table: nameOf(tokens[from]!) };
  const written = (from: number, after: number): string =>
    sql.slice(tokens[from]!.start, tokens[after - 1]!.end);
  if (isWord(tokens[0], 'CREATE')) {
    let index = 1;
    if (isWord(tokens[index], 'UNIQUE', 'FULLTEXT', 'SPATIAL')) index += 1;
    if (!isWord(tokens[index], 'INDEX')) {
      return { ok: false, reason: 'only CREATE INDEX can be applied among CREATE statements' };
    }
    index = ifClause(tokens, index + 1, true);
    if (index < 0 || !isName(tokens[index]) || !isWord(tokens[index + 1], 'ON'))
      return { ok: false, reason: 'malformed CREATE INDEX' };
    const name = nameOf(tokens[index]!);
    const after = tableRef(tokens, index + 2);
    if (after < 0 || !tokens[after]?.group || !indexOptionsOk(tokens.slice(after + 1), true)) {
      return { ok: false, reason: 'malformed CREATE INDEX' };
    }
    return {
      ok: true,
      kind: 'create-index',
      table: written(index + 2, after),
      sql,
      target: target(index + 2, after),
      changes: [{ kind: 'add-index', name }],
    };
  }
  if (isWord(tokens[0], 'ALTER') && isWord(tokens[1], 'TABLE')) {
    const after = tableRef(tokens, 2);
    if (after < 0 || after >= tokens.length) return { ok: false, reason: 'malformed ALTER TABLE' };
    const clauses: Token[][] = [[]];
    for (const token of tokens.slice(after)) {
      if (isPunct(token, ',')) clauses.push([]);
      else clauses[clauses.length - 1]!.push(token);
    }
    const changes: DdlChange[] = [];
    for (const clause of clauses) {
      const change = clause.length === 0 ? 'empty clause' : clauseChange(clause, sql);
      if (typeof change === 'string') return { ok: false, reason: change };
      changes.push(change);
    }
    if (!changes.some((change) => change.kind !== 'algorithm' && change.kind !== 'lock')) {
      return { ok: false, reason: 'nothing to add or drop: the ALTER TABLE only has ALGORITHM/LOCK' };
    }
    return {
      ok: true,
      kind: 'alter-table',
      table: written(2, after),
      sql,
      target: target(2, after),
      changes,
    };
  }
  const first = tokens[0]?.value ?? '';
  return {
    ok: false,
    reason: `${first} statements cannot be applied: only CREATE INDEX and ALTER TABLE … ADD/DROP INDEX, ALTER INDEX, ADD/DROP generated COLUMN are accepted`,
  };
}

/**
 * Check one statement for Apply DDL / what-if (see the design note) and say what it changes.
 * `context`: the session's lexical context; unknown parts are tried with every value, and the
 * statement is accepted only when every reading is, with the changes of all readings.
 */
export function analyzeApplicableDdl(statement: string, context: Partial<LexicalContext> = {}): DdlAnalysis {
  const sql = statement.trim().replace(/;\s*$/, '').trim();
  if (sql === '') return { ok: false, reason: 'empty statement' };
  let result: DdlAnalysis | undefined;
  for (const reading of lexicalContexts(context)) {
    const lexed = lexSql(sql, reading);
    if (!lexed.ok && /comment/.test(lexed.error)) return commentsRefused;
    if (!lexed.ok) {
      return {
        ok: false,
        reason: `${lexed.error.replace(/^an? /, '')} (the statement could not be read safely)`,
      };
    }
    if (
      lexed.comments > 0 ||
      lexed.executableComments > 0 ||
      /\/\*|#|--/.test(commentMarks(sql, lexed.tokens))
    ) {
      return commentsRefused;
    }
    const analysis = analyzeTokens(sql, lexed.tokens);
    if (!analysis.ok) return analysis;
    if (!result || !result.ok) result = analysis;
    else {
      const seen = new Set(result.changes.map((change) => JSON.stringify(change)));
      for (const change of analysis.changes)
        if (!seen.has(JSON.stringify(change))) result.changes.push(change);
    }
  }
  return result!;
}

const commentsRefused: DdlAnalysis = {
  ok: false,
  reason: 'comments are not accepted in a statement to apply (a /*! … */ comment would be executed)',
};

/** The text outside tokens (where comments would be). */
function commentMarks(sql: string, tokens: readonly SqlToken[]): string {
  let outside = '';
  let at = 0;
  for (const token of tokens) {
    outside += sql.slice(at, token.start);
    at = token.end;
  }
  return outside + sql.slice(at);
}

/** Check one statement for Apply DDL (see the design note). */
export function checkApplicableDdl(statement: string, context: Partial<LexicalContext> = {}): DdlCheck {
  const analysis = analyzeApplicableDdl(statement, context);
  if (!analysis.ok) return analysis;
  return { ok: true, kind: analysis.kind, table: analysis.table, sql: analysis.sql };
}
