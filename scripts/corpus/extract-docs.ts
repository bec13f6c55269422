// Extracts SQL statements from the code blocks of a documentation checkout (the MariaDB docs
// repository, github.com/mariadb-corporation/mariadb-docs: the MariaDB Knowledge Base) into the
// statement corpus of tests/fixtures/corpus. Prompts, result tables and client output are dropped;
// syntax templates ([…], {…|…}, …) are left out; every statement keeps the file it came from.
// Whether each statement is valid is not decided here: the real servers classify the corpus in CI
// (tests/integration/statement-corpus.test.ts).
//
//   npx tsx scripts/corpus/extract-docs.ts DOCS_CHECKOUT > tests/fixtures/corpus/mariadb-kb.json
//
// The MySQL Reference Manual (its markdown conversion, github.com/tavaresgerson/mysql-docs): every
// fenced block of the given folders, `mysql>` prompts and `->` continuations removed, only text that
// starts like a statement (shell commands and option files are left out):
//
//   npx tsx scripts/corpus/extract-docs.ts CHECKOUT --manual ORIGIN v8/en > tests/fixtures/corpus/mysql-manual.json
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { splitStatements } from '../../src/core/sql/split.js';

const root = process.argv[2];
if (!root) {
  console.error('usage: extract-docs.ts DOCS_CHECKOUT [--manual ORIGIN FOLDER…]');
  process.exit(2);
}
const manual = process.argv[3] === '--manual';
const origin = manual
  ? (process.argv[4] ?? 'MySQL Reference Manual')
  : 'MariaDB Knowledge Base (github.com/mariadb-corporation/mariadb-docs), SQL code blocks';
const folders = manual
  ? process.argv.slice(5)
  : ['server/reference/sql-statements', 'server/reference/sql-functions', 'server/reference/data-types'];
const FENCE = manual ? /```[a-z]*\n([\s\S]*?)```/g : /```sql\n([\s\S]*?)```/g;
const STATEMENT_START =
  /^(?:SELECT|WITH|INSERT|UPDATE|DELETE|REPLACE|TABLE|VALUES|CREATE|ALTER|DROP|RENAME|TRUNCATE|SET|SHOW|EXPLAIN|DESCRIBE|DESC|ANALYZE|OPTIMIZE|REPAIR|CHECK|CHECKSUM|GRANT|REVOKE|USE|BEGIN|START|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|LOCK|UNLOCK|CALL|DO|HANDLER|LOAD|PREPARE|EXECUTE|DEALLOCATE|FLUSH|KILL|RESET|PURGE|CHANGE|STOP|XA|INSTALL|UNINSTALL|SIGNAL|RESIGNAL|GET|IMPORT|CLONE|RESTART|SHUTDOWN|BINLOG|CACHE|HELP)\b/i;

function* markdownFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* markdownFiles(full);
    else if (name.endsWith('.md')) yield full;
  }
}

const OUTPUT_LINE =
  /^\s*(\+[-+]+\+|\|.*\||Query OK|ERROR \d+|Empty set|\d+ rows? in set|Records: |Rows matched|Warnings?:|Warning \(Code|Note \(Code|Bye$|Database changed|\*{5,})/;
const PROMPT = /^\s*(?:MariaDB \[[^\]]*\]>|MariaDB>|mysql>|SQL>|\s+->)\s?/;
const PLAIN_PROMPT = /^\s*(?:mysql>|->|>(?=\s))\s?/;

function isTemplate(sql: string): boolean {
  const code = sql.replace(/'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"|`[^`]*`/g, "''");
  return /[[\]{}]|\.\.\.|…|<[a-z_ ]+>/i.test(code) || /\s\|\s/.test(code);
}

const seen = new Set<string>();
const groups: { source: string; statements: string[] }[] = [];
for (const folder of folders) {
  const dir = path.join(root, folder);
  for (const file of markdownFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    const statements: string[] = [];
    for (const block of text.matchAll(FENCE)) {
      const lines = block[1]!
        .split('\n')
        .filter((line) => !OUTPUT_LINE.test(line))
        .map((line) => line.replace(manual ? PLAIN_PROMPT : PROMPT, ''));
      for (const slice of splitStatements(lines.join('\n'))) {
        // `\G` ends a statement in the client; in the manual, its vertical output follows.
        const sql = (
          manual ? slice.sql.replace(/\\G(?:\s[\s\S]*)?$/, '') : slice.sql.replace(/\\G$/, '')
        ).trim();
        if (sql.length < 8 || sql.length > 4000) continue;
        if (!/^[A-Za-z(]/.test(sql) || isTemplate(sql)) continue;
        if (manual && !STATEMENT_START.test(sql)) continue;
        const key = sql.replace(/\s+/g, ' ').toLowerCase();
        if (seen.has(key)) continue;
        seen.add(key);
        statements.push(sql);
      }
    }
    if (statements.length > 0) groups.push({ source: path.relative(root, file), statements });
  }
}
process.stdout.write(`${JSON.stringify({ origin, groups }, null, 1)}\n`);
console.error(
  `${groups.reduce((sum, group) => sum + group.statements.length, 0)} statements from ${groups.length} pages`,
);
