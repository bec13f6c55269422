// MOD001: INSERT/REPLACE omits a NOT NULL column that has no DEFAULT → ERROR 1364 under strict mode, warning 1364 otherwise.

import { predictError, sqlModeSet } from '../sqlmode/modes.js';
import {
  hasIgnore,
  insertColumns,
  insertRows,
  spanFor,
  targetTable,
  targetTableName,
} from '../sqlmode/statement.js';
import { type AstNode, isNode } from '../sql/ast.js';
import type { TableInfo } from '../model/schema.js';
import { defineRule } from './engine.js';

/** `DEFAULT` or `DEFAULT(col)` as a VALUES item: the column's DEFAULT, which it may not have. */
function isDefaultValue(value: AstNode): boolean {
  // The parser marks plain identifiers `type: 'default'` too, so the text decides.
  if (value.type === 'default') return String(value.value).toUpperCase() === 'DEFAULT';
  if (value.type !== 'function' || !isNode(value.name)) return false;
  const parts = Array.isArray(value.name.name) ? value.name.name : [];
  return parts.length === 1 && isNode(parts[0]) && String(parts[0].value).toUpperCase() === 'DEFAULT';
}

/**
 * Lower-cased names of the columns some row of the statement leaves to their DEFAULT: those absent
 * from the column list, every column of an empty `VALUES ()` row, and those given `DEFAULT` or
 * `DEFAULT(col)`. Empty when every row gives every column a value.
 */
function defaultedColumns(ast: AstNode, table: TableInfo): Set<string> {
  const listed = insertColumns(ast);
  const order = listed ?? table.columns.map((column) => column.name);
  const defaulted = new Set<string>();
  if (listed !== null) {
    const given = new Set(listed.map((name) => name.toLowerCase()));
    for (const column of table.columns)
      if (!given.has(column.name.toLowerCase())) defaulted.add(column.name.toLowerCase());
  }
  for (const row of insertRows(ast)) {
    if (row.length === 0) {
      // VALUES () (MySQL and MariaDB): every column takes its DEFAULT.
      for (const column of table.columns) defaulted.add(column.name.toLowerCase());
      continue;
    }
    row.forEach((value, index) => {
      const name = order[index];
      if (name !== undefined && isDefaultValue(value)) defaulted.add(name.toLowerCase());
    });
  }
  return defaulted;
}

export const rule = defineRule({
  meta: {
    id: 'MOD001',
    name: 'sql-mode.missing-not-null-value',
    category: 'sql-mode',
    severity: 'error',
    title: 'INSERT omits a NOT NULL column without DEFAULT',
    rationale:
      "A value is missing when a new row does not contain a value for a NOT NULL column that has no explicit DEFAULT. Strict mode (the default since MySQL 5.7 and MariaDB 10.2.4) rejects the row with ERROR 1364; without strict mode the server stores the type's implicit default ('0000-00-00 00:00:00', 0, '') with only a warning.",
    appliesTo: ['insert', 'replace'],
    messages: {
      strict:
        '{{column}} is NOT NULL without DEFAULT and the statement gives it no value: ERROR 1364 under {{modes}}.',
      lax: '{{column}} is NOT NULL without DEFAULT and the statement gives it no value: the server stores its implicit default with warning 1364 (strict mode is off).',
      ignored:
        '{{column}} is NOT NULL without DEFAULT and the statement gives it no value: INSERT IGNORE turns ERROR 1364 into a warning and stores the implicit default.',
    },
    docs: {
      antiPattern:
        'CREATE TABLE events_t (id int NOT NULL AUTO_INCREMENT PRIMARY KEY, event_date datetime NOT NULL, profile_id int DEFAULT NULL);\ninsert into events_t (profile_id) values (1);',
      bestPractice:
        'CREATE TABLE events_t (id int NOT NULL AUTO_INCREMENT PRIMARY KEY, event_date datetime NOT NULL, profile_id int DEFAULT NULL);\ninsert into events_t (profile_id, event_date) values (1, NOW());',
      notes: [
        'Needs the table definition (a live server or CREATE TABLE text); statements on unknown tables are not checked by this rule.',
        "Also reported without a column list when a row leaves the column to its DEFAULT: `VALUES ()`, `VALUES (DEFAULT)`, `VALUES (DEFAULT(col))` (the MySQL manual's examples; ERROR 1364 on both servers).",
        'Fixes (from the seed post): supply the value (e.g. NOW()), allow NULL, give the column a real DEFAULT, or use TIMESTAMP/DATETIME DEFAULT CURRENT_TIMESTAMP.',
      ],
    },
  },
  detect(context) {
    const table = targetTable(context.ast, context.schema, context.server.database);
    if (!table) return;
    // Without a column list every column is given positionally, except in an empty VALUES () row
    // and where a row says DEFAULT / DEFAULT(col).
    const defaulted = defaultedColumns(context.ast, table);
    const modes = sqlModeSet(context.server.sqlMode.session, context.flavor);
    const ignore = hasIgnore(context.ast, context.tolerated);
    const name = targetTableName(context.ast)?.table ?? table.name;
    for (const column of table.columns) {
      if (!defaulted.has(column.name.toLowerCase())) continue;
      if (column.nullable || column.hasDefault || column.autoIncrement || column.generated) continue;
      const error = modes.strict && !ignore;
      context.report({
        messageId: error ? 'strict' : ignore ? 'ignored' : 'lax',
        data: {
          column: column.name,
          modes: modes.has('STRICT_ALL_TABLES') ? 'STRICT_ALL_TABLES' : 'STRICT_TRANS_TABLES',
        },
        severity: error ? 'error' : 'warning',
        span: spanFor(context.sql, null, name),
        table: table.name,
        columns: [column.name],
        expression: context.sql,
        predictedError: predictError(1364, context.flavor, { column: column.name }, !error),
        notes: [
          `Fix: supply ${column.name} in the column list (e.g. NOW() for a date), make it NULL-able, or give it a DEFAULT (for dates: a real date or CURRENT_TIMESTAMP).`,
          ...(error && table.engine && !/innodb/i.test(table.engine) && !modes.has('STRICT_ALL_TABLES')
            ? [
                `${table.name} is ${table.engine} (non-transactional): with STRICT_TRANS_TABLES only the first row fails; later rows of a multi-row INSERT get the implicit default with a warning.`,
              ]
            : []),
        ],
      });
    }
  },
});
