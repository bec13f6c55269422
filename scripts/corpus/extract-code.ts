// Extracts SQL statements from other projects' test suites (SQL advisors, linters, the servers' own
// test suites) into the statement corpus of tests/fixtures/corpus/peer-tests.json. Statements are taken
// from `.sql` files, from string literals of Go (`"…"`, raw strings, `"a" + "b"` concatenations) and
// Perl (`'…'`, `"…"`, `q{…}`, `qq{…}`, here-docs) test files, and from mysqltest `.test` scripts.
// Templates (Go/Perl format verbs, interpolated variables) are left out; every statement keeps the
// repository, commit and file it came from. Whether a statement is valid is not decided here: the
// real servers classify the corpus in CI (tests/integration/statement-corpus.test.ts).
//
//   npx tsx scripts/corpus/extract-code.ts OWNER/REPO COMMIT CHECKOUT [SUBPATH…] > part.json
//   npx tsx scripts/corpus/extract-code.ts --merge tests/fixtures/corpus/peer-tests.json part.json…
//
// A checkout is a plain tree of the repository at COMMIT (`git archive COMMIT | tar -x`).
import { lstatSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { splitStatements } from '../../src/core/sql/split.js';

interface Group {
  source: string;
  statements: string[];
}
interface CorpusFile {
  origin: string;
  groups: Group[];
}

const STATEMENT_START =
  /^(?:SELECT|WITH|INSERT|UPDATE|DELETE|REPLACE|TABLE|VALUES|CREATE|ALTER|DROP|RENAME|TRUNCATE|SET|SHOW|EXPLAIN|DESCRIBE|DESC|ANALYZE|OPTIMIZE|REPAIR|CHECK|CHECKSUM|GRANT|REVOKE|USE|BEGIN|START|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|LOCK|UNLOCK|CALL|DO|HANDLER|LOAD|PREPARE|EXECUTE|DEALLOCATE|FLUSH|KILL|RESET|PURGE|CHANGE|XA|INSTALL|UNINSTALL|SIGNAL|RESIGNAL|BINLOG|CACHE|HELP)\b/i;

/** Go string literals, adjacent `+` concatenations joined. */
function goStrings(text: string): string[] {
  const out: string[] = [];
  let index = 0;
  let current: string | null = null;
  let joinable = false;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '/' && text[index + 1] === '/') {
      index = text.indexOf('\n', index);
      if (index < 0) break;
      continue;
    }
    if (char === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2);
      index = end < 0 ? text.length : end + 2;
      continue;
    }
    if (char === '`' || char === '"') {
      let value = '';
      let cursor = index + 1;
      if (char === '`') {
        const end = text.indexOf('`', cursor);
        if (end < 0) break;
        value = text.slice(cursor, end);
        cursor = end + 1;
      } else {
        while (cursor < text.length && text[cursor] !== '"' && text[cursor] !== '\n') {
          if (text[cursor] === '\\') {
            const next = text[cursor + 1] ?? '';
            value += next === 'n' ? '\n' : next === 't' ? '\t' : next;
            cursor += 2;
          } else value += text[cursor++];
        }
        cursor++;
      }
      if (current !== null && joinable) current += value;
      else {
        if (current !== null) out.push(current);
        current = value;
      }
      joinable = false;
      index = cursor;
      continue;
    }
    if (char === "'") {
      // A rune literal.
      const end = text.indexOf("'", index + (text[index + 1] === '\\' ? 3 : 2));
      index = end < 0 ? index + 1 : end + 1;
      continue;
    }
    if (char === '+' && current !== null) joinable = true;
    else if (!/\s/.test(char)) {
      if (current !== null) out.push(current);
      current = null;
      joinable = false;
    }
    index++;
  }
  if (current !== null) out.push(current);
  return out;
}

/** Perl string literals; interpolating strings that interpolate a variable are dropped. */
function perlStrings(text: string): string[] {
  const out: string[] = [];
  const interpolates = (value: string) => /[$@][A-Za-z_{]/.test(value.replace(/'[^']*'/g, ''));
  for (const match of text.matchAll(/<<\s*["']?([A-Z_]+)["']?;?[^\n]*\n([\s\S]*?)\n\1\n/g))
    out.push(match[2]!);
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '#' && (index === 0 || /\s/.test(text[index - 1]!))) {
      index = text.indexOf('\n', index);
      if (index < 0) break;
      continue;
    }
    const quoteOp = /^qq?\s*([{(/|])/.exec(text.slice(index, index + 4));
    if (quoteOp && (index === 0 || !/\w/.test(text[index - 1]!))) {
      const open = quoteOp[1]!;
      const close = { '{': '}', '(': ')', '/': '/', '|': '|' }[open]!;
      let depth = 1;
      let cursor = index + quoteOp[0].length;
      const begin = cursor;
      while (cursor < text.length && depth > 0) {
        if (text[cursor] === '\\') cursor++;
        else if (text[cursor] === close) depth--;
        else if (text[cursor] === open && open !== close) depth++;
        cursor++;
      }
      const value = text.slice(begin, cursor - 1);
      if (!(quoteOp[0].startsWith('qq') && interpolates(value))) out.push(value);
      index = cursor;
      continue;
    }
    if (char === '"' || char === "'") {
      let cursor = index + 1;
      let value = '';
      while (cursor < text.length && text[cursor] !== char) {
        if (text[cursor] === '\\') {
          value +=
            text[cursor + 1] === char || text[cursor + 1] === '\\'
              ? text[cursor + 1]
              : `\\${text[cursor + 1]}`;
          cursor += 2;
        } else value += text[cursor++];
      }
      if (!(char === '"' && interpolates(value))) out.push(value.replace(/\\n/g, '\n'));
      index = cursor + 1;
      continue;
    }
    index++;
  }
  return out;
}

const MYSQLTEST_COMMAND =
  /^\s*(?:--|let |eval |if\b|while\b|}|{|echo |source |connect|disconnect|connection |error |replace_|sleep |real_sleep |send|reap|exec |perl|EOF|die |exit|skip |query_|disable_|enable_|remove_file|write_file|append_file|cat_file|file_exists|copy_file|move_file|mkdir|rmdir|list_files|inc |dec |vertical_results|horizontal_results|sorted_result|partially_sorted_result|lowercase_result|shutdown_server|save_master_pos|sync_|wait_for_|change_user|result_format|character_set|ping|dirty_close|expr |assert|output|delimiter)/i;

/** The SQL of a mysqltest script: its command lines dropped, `delimiter` honoured by the splitter. */
function mysqltestSql(text: string): string {
  const lines: string[] = [];
  let skipping: string | null = null;
  for (const line of text.split('\n')) {
    if (skipping) {
      if (line.trim() === skipping) skipping = null;
      continue;
    }
    const block = /^\s*(?:--)?\s*(?:perl|write_file|append_file)\b[^;]*?(\w+)?\s*;?\s*$/i.exec(line);
    if (block) {
      skipping = 'EOF';
      continue;
    }
    if (/^\s*#/.test(line)) continue;
    if (/^\s*(?:--\s*)?delimiter\s+(\S+)/i.test(line)) {
      lines.push(line.replace(/^\s*(?:--\s*)?delimiter\s+(\S+?)\s*;?\s*$/i, 'DELIMITER $1'));
      continue;
    }
    if (MYSQLTEST_COMMAND.test(line) && !/^\s*--\s/.test(line)) {
      lines.push('');
      continue;
    }
    lines.push(line);
  }
  return lines.join('\n');
}

function isTemplate(sql: string): boolean {
  return /%[sdvqT]|%\.\d|\{\{|\$\{|\$\d|\?\?|<[a-z_]+>|\bxxx\b|\.\.\./i.test(sql);
}

function statementsOf(file: string, text: string): string[] {
  let chunks: string[];
  // A parser's table-driven test (`{"SQL", true, "restored SQL"}`): only the input, not the restored form.
  const table = [...text.matchAll(/\{\s*"((?:[^"\\\n]|\\.)*)",\s*(?:true|false)\b/g)];
  if (file.endsWith('.go') && table.length >= 20)
    chunks = table.map((match) => goStrings(`"${match[1]!}"`)[0] ?? '');
  else if (file.endsWith('.go')) chunks = goStrings(text);
  else if (/\.(t|pl|pm)$/.test(file)) chunks = perlStrings(text);
  else if (file.endsWith('.test') || file.endsWith('.inc')) chunks = [mysqltestSql(text)];
  else chunks = [text];
  const out: string[] = [];
  for (const chunk of chunks) {
    if (
      !/\b(?:SELECT|INSERT|UPDATE|DELETE|REPLACE|CREATE|ALTER|DROP|SET|SHOW|WITH|GRANT|CALL)\b/i.test(chunk)
    )
      continue;
    for (const slice of splitStatements(chunk)) {
      const sql = slice.sql.replace(/\\G$/, '').trim();
      if (sql.length < 8 || sql.length > 4000 || !/\s/.test(sql)) continue;
      if (!STATEMENT_START.test(sql) || isTemplate(sql)) continue;
      out.push(sql);
    }
  }
  return out;
}

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    const stat = lstatSync(full);
    if (stat.isDirectory()) yield* files(full);
    else if (stat.isFile() && /\.(sql|go|t|pl|pm|test|inc)$/.test(name)) yield full;
  }
}

const normal = (sql: string) => sql.replace(/\s+/g, ' ').toLowerCase();

if (process.argv[2] === '--merge') {
  const [, , , target, ...parts] = process.argv;
  if (!target) throw new Error('usage: extract-code.ts --merge TARGET PART…');
  let existing: CorpusFile = { origin: '', groups: [] };
  try {
    existing = JSON.parse(readFileSync(target, 'utf8')) as CorpusFile;
  } catch {
    // A new file.
  }
  const seen = new Set<string>();
  for (const name of ['mariadb-kb.json'])
    for (const group of (
      JSON.parse(readFileSync(path.join(path.dirname(target), name), 'utf8')) as CorpusFile
    ).groups)
      for (const sql of group.statements) seen.add(normal(sql));
  for (const sql of splitStatements(
    readFileSync(path.join(path.dirname(target), 'known-misses.sql'), 'utf8'),
  ))
    seen.add(normal(sql.sql));
  const incoming = parts.flatMap((part) => (JSON.parse(readFileSync(part, 'utf8')) as CorpusFile).groups);
  const repos = new Set(incoming.map((group) => group.source.split('@')[0]));
  const groups = existing.groups.filter((group) => !repos.has(group.source.split('@')[0]));
  for (const group of groups) for (const sql of group.statements) seen.add(normal(sql));
  for (const group of incoming) {
    const statements = group.statements.filter((sql) => {
      const key = normal(sql);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (statements.length > 0) groups.push({ source: group.source, statements });
  }
  const origin =
    'Statements from public test suites of SQL advisors, linters and servers: `source` is OWNER/REPO@COMMIT:PATH on GitHub';
  writeFileSync(target, `${JSON.stringify({ origin, groups }, null, 1)}\n`);
  console.error(
    `${groups.reduce((sum, group) => sum + group.statements.length, 0)} statements from ${groups.length} files`,
  );
} else {
  const [, , repo, commit, root, ...subpaths] = process.argv;
  if (!repo || !commit || !root) {
    console.error('usage: extract-code.ts OWNER/REPO COMMIT CHECKOUT [SUBPATH…]');
    process.exit(2);
  }
  const groups: Group[] = [];
  for (const sub of subpaths.length > 0 ? subpaths : ['.']) {
    const start = path.join(root, sub);
    for (const file of statSync(start).isDirectory() ? files(start) : [start]) {
      const statements = statementsOf(file, readFileSync(file, 'utf8'));
      if (statements.length > 0)
        groups.push({ source: `${repo}@${commit}:${path.relative(root, file)}`, statements });
    }
  }
  process.stdout.write(`${JSON.stringify({ origin: repo, groups }, null, 1)}\n`);
  console.error(
    `${repo}: ${groups.reduce((sum, group) => sum + group.statements.length, 0)} statements from ${groups.length} files`,
  );
}
