// Which statements "Apply DDL" may run: index creation and generated columns only, one statement each.
/*
 * Design note.
 * Applying DDL is an explicit write on the user's server, so the accepted list is an allow-list of
 * the shapes the advisor and the export produce, checked on tokens (not a parser, so nothing the
 * parser does not understand slips through as "unknown"):
 *   CREATE [UNIQUE|FULLTEXT|SPATIAL] INDEX [IF NOT EXISTS] name ON [db.]table (…) [options]
 *   ALTER TABLE [db.]table clause [, clause …] where every clause is one of
 *     ADD [UNIQUE|FULLTEXT|SPATIAL] {INDEX|KEY} [IF NOT EXISTS] [name] (…) [options]
 *     ADD UNIQUE [name] (…) [options]
 *     ADD [COLUMN] [IF NOT EXISTS] name type … [GENERATED ALWAYS] AS (…) [VIRTUAL|STORED|PERSISTENT] …
 *     ALGORITHM [=] word, LOCK [=] word
 * Anything else is refused with the reason: DROP, MODIFY, RENAME, DML, several statements in one
 * string (a `;` inside), and comments (a `/*! … *\/` comment is executed by the server, so it could
 * hide any statement). Index options are a closed word list.
 */

/** The verdict on one statement. */
export type DdlCheck =
  | { ok: true; kind: 'create-index' | 'alter-table'; table: string; sql: string }
  | { ok: false; reason: string };

interface Token {
  /** Upper-cased text for words; the raw text otherwise. */
  word: string | null;
  text: string;
  /** A balanced `( … )` group (its tokens are not inspected further). */
  group?: boolean;
}

const OPTION_WORDS = new Set([
  'ALGORITHM',
  'LOCK',
  'DEFAULT',
  'INPLACE',
  'COPY',
  'INSTANT',
  'NOCOPY',
  'NONE',
  'SHARED',
  'EXCLUSIVE',
  'USING',
  'BTREE',
  'HASH',
  'VISIBLE',
  'INVISIBLE',
  'IGNORED',
  'NOT',
  'COMMENT',
  'KEY_BLOCK_SIZE',
]);

function tokenize(sql: string): Token[] | string {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const char = sql[i]!;
    if (/\s/.test(char)) {
      i += 1;
      continue;
    }
    if (sql.startsWith('--', i) || char === '#' || sql.startsWith('/*', i)) {
      return 'comments are not accepted in a statement to apply (a /*! … */ comment would be executed)';
    }
    if (char === ';') return 'one statement at a time: remove the ";" inside the statement';
    if (char === '`' || char === "'" || char === '"') {
      let j = i + 1;
      for (;;) {
        if (j >= sql.length) return `unterminated ${char} quote`;
        if (sql[j] === '\\' && char !== '`') j += 2;
        else if (sql[j] === char && sql[j + 1] === char) j += 2;
        else if (sql[j] === char) break;
        else j += 1;
      }
      const text = sql.slice(i, j + 1);
      tokens.push({ word: null, text });
      i = j + 1;
      continue;
    }
    if (char === '(') {
      let depth = 0;
      let j = i;
      for (; j < sql.length; j += 1) {
        const inner = sql[j]!;
        if (inner === '`' || inner === "'" || inner === '"') {
          let k = j + 1;
          while (k < sql.length && sql[k] !== inner) k += sql[k] === '\\' && inner !== '`' ? 2 : 1;
          j = k;
          continue;
        }
        if (inner === ';') return 'one statement at a time: remove the ";" inside the statement';
        if (sql.startsWith('--', j) || inner === '#' || sql.startsWith('/*', j)) {
          return 'comments are not accepted in a statement to apply (a /*! … */ comment would be executed)';
        }
        if (inner === '(') depth += 1;
        if (inner === ')') depth -= 1;
        if (depth === 0) break;
      }
      if (depth !== 0) return 'unbalanced parentheses';
      tokens.push({ word: null, text: sql.slice(i, j + 1), group: true });
      i = j + 1;
      continue;
    }
    const word = /^[A-Za-z0-9_$]+/.exec(sql.slice(i));
    if (word) {
      tokens.push({ word: word[0].toUpperCase(), text: word[0] });
      i += word[0].length;
      continue;
    }
    tokens.push({ word: null, text: char });
    i += 1;
  }
  return tokens;
}

const isName = (token: Token | undefined): boolean =>
  token !== undefined && !token.group && (token.word !== null || token.text.startsWith('`'));

/** `[db.]table` at `index`; returns the index after it, or -1. */
function tableRef(tokens: Token[], index: number): number {
  if (!isName(tokens[index])) return -1;
  if (tokens[index + 1]?.text === '.') return isName(tokens[index + 2]) ? index + 3 : -1;
  return index + 1;
}

/** Index options after the key part list: a closed word list, `=`, numbers and strings. */
function optionsOk(tokens: Token[]): boolean {
  return tokens.every(
    (token) =>
      !token.group &&
      (token.text === '=' ||
        (token.word !== null && (OPTION_WORDS.has(token.word) || /^\d+$/.test(token.word))) ||
        token.text.startsWith("'")),
  );
}

/** `[IF NOT EXISTS]` at `index`; returns the index after it. */
function ifNotExists(tokens: Token[], index: number): number {
  return tokens[index]?.word === 'IF' &&
    tokens[index + 1]?.word === 'NOT' &&
    tokens[index + 2]?.word === 'EXISTS'
    ? index + 3
    : index;
}

/** `[name] (…) options` of an index; true when it has that shape. */
function indexBodyOk(tokens: Token[]): boolean {
  let index = ifNotExists(tokens, 0);
  if (isName(tokens[index]) && tokens[index]?.word !== 'USING') index += 1;
  if (!tokens[index]?.group) return false;
  return optionsOk(tokens.slice(index + 1));
}

function clauseOk(clause: Token[]): string | null {
  const [first, second, third] = clause;
  if (first?.word === 'ALGORITHM' || first?.word === 'LOCK') {
    const rest = clause.slice(1).filter((token) => token.text !== '=');
    return rest.length === 1 && rest[0]?.word !== null ? null : `${first.word} needs one value`;
  }
  if (first?.word !== 'ADD')
    return `only ADD INDEX, ADD KEY, ADD of a generated column, ALGORITHM and LOCK clauses can be applied, not “${clause.map((t) => t.text).join(' ')}”`;
  if (second?.word === 'INDEX' || second?.word === 'KEY')
    return indexBodyOk(clause.slice(2)) ? null : 'malformed ADD INDEX';
  if (second?.word === 'UNIQUE' || second?.word === 'FULLTEXT' || second?.word === 'SPATIAL') {
    const from = third?.word === 'INDEX' || third?.word === 'KEY' ? 3 : 2;
    return indexBodyOk(clause.slice(from)) ? null : `malformed ADD ${second.word} INDEX`;
  }
  if (['PRIMARY', 'CONSTRAINT', 'FOREIGN', 'CHECK', 'PARTITION'].includes(second?.word ?? '')) {
    return `ADD ${second?.word} is not an index the advisor proposes; apply it with your own tools`;
  }
  // ADD [COLUMN] [IF NOT EXISTS] name definition: only generated columns (AS (expr)).
  let index = second?.word === 'COLUMN' ? 2 : 1;
  index = ifNotExists(clause, index);
  if (!isName(clause[index])) return 'malformed ADD COLUMN';
  const definition = clause.slice(index + 1);
  const as = definition.findIndex((token, at) => token.word === 'AS' && definition[at + 1]?.group === true);
  if (as < 0) return 'only generated columns (… AS (expression) VIRTUAL) can be added by Apply DDL';
  if (definition.some((token) => token.word === 'DEFAULT' || token.word === 'REFERENCES')) {
    return 'a generated column cannot have DEFAULT or REFERENCES';
  }
  return null;
}

/** Check one statement for Apply DDL (see the design note). */
export function checkApplicableDdl(statement: string): DdlCheck {
  const sql = statement.trim().replace(/;\s*$/, '').trim();
  if (sql === '') return { ok: false, reason: 'empty statement' };
  const tokens = tokenize(sql);
  if (typeof tokens === 'string') return { ok: false, reason: tokens };
  const head = tokens[0]?.word;
  if (head === 'CREATE') {
    let index = 1;
    if (['UNIQUE', 'FULLTEXT', 'SPATIAL'].includes(tokens[index]?.word ?? '')) index += 1;
    if (tokens[index]?.word !== 'INDEX') {
      return { ok: false, reason: 'only CREATE INDEX can be applied among CREATE statements' };
    }
    index = ifNotExists(tokens, index + 1);
    if (!isName(tokens[index]) || tokens[index + 1]?.word !== 'ON')
      return { ok: false, reason: 'malformed CREATE INDEX' };
    const after = tableRef(tokens, index + 2);
    if (after < 0 || !tokens[after]?.group || !optionsOk(tokens.slice(after + 1))) {
      return { ok: false, reason: 'malformed CREATE INDEX' };
    }
    const table = tokens
      .slice(index + 2, after)
      .map((token) => token.text)
      .join('');
    return { ok: true, kind: 'create-index', table, sql };
  }
  if (head === 'ALTER' && tokens[1]?.word === 'TABLE') {
    const after = tableRef(tokens, 2);
    if (after < 0 || after >= tokens.length) return { ok: false, reason: 'malformed ALTER TABLE' };
    const clauses: Token[][] = [[]];
    for (const token of tokens.slice(after)) {
      if (token.text === ',') clauses.push([]);
      else clauses[clauses.length - 1]!.push(token);
    }
    for (const clause of clauses) {
      const problem = clause.length === 0 ? 'empty clause' : clauseOk(clause);
      if (problem) return { ok: false, reason: problem };
    }
    if (!clauses.some((clause) => clause[0]?.word === 'ADD')) {
      return { ok: false, reason: 'nothing to add: the ALTER TABLE has no ADD clause' };
    }
    const table = tokens
      .slice(2, after)
      .map((token) => token.text)
      .join('');
    return { ok: true, kind: 'alter-table', table, sql };
  }
  const first = tokens[0]?.word ?? tokens[0]?.text ?? '';
  return {
    ok: false,
    reason: `${first} statements cannot be applied: only CREATE INDEX and ALTER TABLE … ADD INDEX / ADD generated COLUMN are accepted`,
  };
}
