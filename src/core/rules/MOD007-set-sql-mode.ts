// MOD007: SET sql_mode = '…' naming modes the server does not know or has removed (NO_AUTO_CREATE_USER on MySQL 8.0) → ERROR 1231.

import { modeInfo, predictError, sqlModeSet, validateSqlMode, validModes } from '../sqlmode/modes.js';
import { quoted, spanFor, stringLiteral } from '../sqlmode/statement.js';
import { isNode } from '../sql/ast.js';
import { defineRule } from './engine.js';

export const rule = defineRule({
  meta: {
    id: 'MOD007',
    name: 'sql-mode.set-invalid-mode',
    category: 'sql-mode',
    severity: 'error',
    title: 'SET sql_mode with an unknown or removed mode',
    rationale:
      'Applications and my.cnf files carry sql_mode strings across upgrades. MySQL 8.0 removed NO_AUTO_CREATE_USER and the compatibility modes (ORACLE, MSSQL, DB2, POSTGRESQL, MAXDB, MYSQL323, MYSQL40, NO_*_OPTIONS): setting them fails with ERROR 1231 and the connection keeps its old mode.',
    appliesTo: ['other'],
    messages: {
      removed: 'sql_mode {{mode}} no longer exists on this server ({{why}}): ERROR 1231.',
      unknown: 'sql_mode {{mode}} is not a mode of this server: ERROR 1231. Valid modes: {{valid}}.',
      lax: 'This SET turns strict mode off: invalid or missing values will be stored silently (truncated strings, zero dates, implicit defaults).',
    },
    docs: {
      antiPattern: "SET SESSION sql_mode = 'STRICT_TRANS_TABLES,NO_AUTO_CREATE_USER'",
      bestPractice: "SET SESSION sql_mode = 'STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION'",
    },
  },
  detect(context) {
    const ast = context.ast;
    if (ast.type !== 'set' || !Array.isArray(ast.expr)) return;
    for (const item of ast.expr.filter(isNode)) {
      const left = isNode(item.left) ? item.left : undefined;
      const members = Array.isArray(left?.members) ? left.members.map(String) : [];
      const name = String(left?.name ?? '').toLowerCase();
      if (name !== 'sql_mode' && !(members.length === 1 && members[0]?.toLowerCase() === 'sql_mode'))
        continue;
      const value = stringLiteral(item.right);
      if (value === undefined) continue;
      const validation = validateSqlMode(value, context.flavor, context.server.version);
      const bad = [...validation.removed, ...validation.unknown];
      const first = bad[0];
      if (first !== undefined) {
        const removed = validation.removed.includes(first);
        context.report({
          messageId: removed ? 'removed' : 'unknown',
          data: {
            mode: first,
            why: modeInfo(first)?.removal ?? 'removed',
            valid: validModes(context.flavor, context.server.version).join(', '),
          },
          span: spanFor(context.sql, null, first),
          table: null,
          columns: [],
          expression: quoted(value),
          predictedError: predictError(1231, context.flavor, { value: first }),
          notes: bad.length > 1 ? [`Other invalid modes in the same value: ${bad.slice(1).join(', ')}.`] : [],
        });
        continue;
      }
      if (
        !sqlModeSet(value, context.flavor).strict &&
        sqlModeSet(context.server.sqlMode.session, context.flavor).strict
      ) {
        context.report({
          messageId: 'lax',
          severity: 'warning',
          span: spanFor(context.sql, null, quoted(value)),
          table: null,
          columns: [],
          expression: quoted(value),
        });
      }
    }
  },
});
