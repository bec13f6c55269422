// FUN001: a column wrapped in a function (or CAST, COLLATE, JSON operator, CASE, COALESCE, concatenation) on the column side of a predicate.

import { defineRule } from './engine.js';
import { expressionServedByIndex, reportWrappedSites } from './utils/wrapped-site.js';

export const rule = defineRule({
  meta: {
    id: 'FUN001',
    name: 'predicate.function-wrapped-column',
    category: 'function-wrapped-predicate',
    severity: 'warning',
    title: 'Column wrapped in a function in a predicate',
    rationale:
      'An index stores column values, not the values of an expression over them. When a predicate applies a function to the column, the optimizer cannot seek the index on that column and reads every row.',
    appliesTo: ['select', 'update', 'delete', 'insert', 'replace'],
    messages: {
      wrapped:
        '{{wrapper}} wraps column {{column}}: an index on {{column}} cannot serve this predicate, so every row is read.',
      wrappedOrder:
        '{{wrapper}} wraps column {{column}} in {{clause}}: an index on {{column}} cannot provide this order.',
      servedOnlyByName:
        '{{wrapper}} wraps column {{column}}. Generated column {{generated}} is indexed with this expression, but {{flavorName}} does not substitute it: name {{generated}} in the query.',
    },
    docs: {
      antiPattern: 'SELECT AVG(price) FROM products WHERE MONTH(create_time) = 10',
      bestPractice:
        "SELECT AVG(price) FROM products WHERE create_time >= '2019-10-01' AND create_time < '2019-11-01' -- when one year is meant; otherwise index the expression",
      notes: [
        'Functions applied only to constants or parameters are fine: `create_time >= NOW() - INTERVAL 1 DAY`.',
        'Connected, every proposed index is checked on the live data before it is offered (docs/cli.md, "Live index use"): the random selectivity sample counts the rows the advised predicate matches, and an index the server would not read (a range over more than the break-even share measured on each server, e.g. ~28% of a MySQL table of up to 20,000 rows, ~16% on MariaDB; an equality MariaDB scans from ~18%) is withdrawn, with the share and rows in a finding note. Covering reads, ORDER BY … LIMIT, an index leading with a join column and tables under 100 rows are not judged. DDL whose expression fails on stored rows (ERROR 1690 out of range, ERROR 1365 division by 0, a CAST that does not convert) is withdrawn the same way; offline, the suggestion states the risk and the check to run.',
        "Not reported when an existing functional index (MySQL >= 8.0.13) or an indexed generated column that the server substitutes has the same expression (`c->\"$.id\"`, `JSON_EXTRACT(c, \"$.id\")` and the server's stored `json_extract(`c`,_utf8mb4'$.id')` are the same), nor on MySQL for `col->>'$.path'` when a functional index `CAST(col->>'$.path' AS CHAR(n)) COLLATE utf8mb4_bin` exists (the manual's JSON index; without the COLLATE it is not used).",
        'Join conditions (`t1.a = UPPER(t2.b)`): only the side whose index the join would seek matters. Not reported when t2 can drive the join (inner join, or the outer side of a LEFT JOIN) and an index starts with t1.a: the server computes UPPER(t2.b) once per t2 row and seeks t1 (EXPLAIN ref func). Reported when t2 must be the inner table (right side of a LEFT JOIN, left side of a RIGHT JOIN, after STRAIGHT_JOIN) or no index starts with t1.a (then indexing t1.a is the other fix). Without a schema for t1 it is not reported. When both sides are wrapped (`ON CAST(t1.a AS CHAR) = CONVERT(t2.b, CHAR)`), only the table that is looked up is reported: not the outer side of an outer join.',
      ],
    },
    peers: { soar: ['FUN.001'], sqle: ['dml_check_where_exist_func', 'dml_not_recommend_func_in_where'] },
  },
  detect(context) {
    reportWrappedSites(context, {
      kinds: ['function', 'cast', 'collate', 'json', 'case', 'coalesce', 'concat'],
      servedBy: expressionServedByIndex,
    });
  },
});
