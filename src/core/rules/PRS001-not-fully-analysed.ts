// PRS001: the statement uses syntax the advisor's parser does not read (the server may well accept it):
// it was not fully analysed. Reported by analyze() itself when node-sql-parser rejects a statement that
// is not provably invalid (src/core/sql/validity.ts), instead of a false "syntax error".

import { defineRule } from './engine.js';

export const rule = defineRule({
  meta: {
    id: 'PRS001',
    name: 'parse.not-fully-analysed',
    category: 'unsupported-syntax',
    severity: 'info',
    title: 'Statement not fully analysed: unsupported syntax',
    rationale:
      'MySQL and MariaDB accept much more syntax than the parser the advisor reads statements with. Such a statement is not reported as a syntax error (the server may accept it), but the checks that need its full structure did not run on it.',
    // Never run on a parsed statement: analyze() reports it when the parse fails.
    appliesTo: [],
    messages: {
      unsupported:
        'Not fully analysed: unsupported syntax at {{line}}:{{column}} (near {{near}}). The statement was not checked for non-sargable predicates or sql_mode problems.',
      unsupportedPart:
        'Not fully analysed: unsupported syntax at {{line}}:{{column}} (near {{near}}). Only the query at {{parts}} was checked, on its own; the rest of the statement was not.',
      unsupportedConstruct:
        'Not fully analysed: unsupported syntax at {{line}}:{{column}} (near {{near}}). The statement was checked without its {{constructs}}: the rest of it (tables, columns, other conditions) was analysed; that part was not, and no rewrite is offered.',
    },
    docs: {
      antiPattern: 'SELECT * FROM t1 WHERE 3 MEMBER OF (j)',
      bestPractice: 'SELECT * FROM t1 WHERE JSON_CONTAINS(j, CAST(3 AS JSON))',
      notes: [
        'A statement that is provably invalid whatever the server (unbalanced parentheses, an unterminated string, a first word that starts no statement, `SELECT FROM`, `, ,`, …) is still reported as a syntax error in `errors[]`.',
        "A query inside such a statement that the parser reads on its own (a subquery or derived table in parentheses, the query of `CREATE VIEW … AS` / `CREATE TABLE … AS` / `DECLARE … CURSOR FOR`) is still checked, and its findings are reported with their positions in the statement; rewrites of it are not offered (they would rewrite the part, not the statement). A construct of one query that the parser cannot read — `expr MEMBER OF (…)`, `JSON_TABLE(…)`, `FOR SYSTEM_TIME …`, MariaDB `RETURNING …`, `LATERAL`, a charset introducer inside an expression (`f(_utf8mb4'x')`) — is set aside instead: the condition is read as TRUE, the table function as a derived table of no known columns under its alias, the others are left out; the rest of the statement is then checked with its positions unchanged, findings inside the construct are dropped, and no rewrite is offered (`unsupportedConstruct`).",
        'The corpus test (tests/integration/statement-corpus.test.ts) measures false syntax errors and false acceptances on MySQL 8.0.33 and MariaDB 10.11; docs/parsing.md has the figures.',
      ],
    },
  },
  detect() {
    // Reported by analyze() when the parse fails; nothing to detect on a parsed statement.
  },
});
