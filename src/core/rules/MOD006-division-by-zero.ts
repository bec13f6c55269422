// MOD006: division or modulo by a literal zero → ERROR 1365 in INSERT/UPDATE under strict + ERROR_FOR_DIVISION_BY_ZERO, NULL otherwise.

import { predictError, sqlModeSet } from '../sqlmode/modes.js';
import { hasIgnore, spanFor } from '../sqlmode/statement.js';
import { type AstNode, embeddedSelect, functionArgs, functionName, isNode } from '../sql/ast.js';
import { defineRule } from './engine.js';

const isZero = (node: unknown): boolean =>
  isNode(node) &&
  node.type === 'number' &&
  /^-?0*(\.0*)?$/.test(String(node.value)) &&
  String(node.value) !== '';

/** `x / 0`, `x DIV 0`, `x % 0`, `x MOD 0`, `MOD(x, 0)` anywhere in the statement. */
function divisionsByZero(ast: AstNode): AstNode[] {
  const found: AstNode[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isNode(value)) return;
    if (embeddedSelect(value)) return visit(embeddedSelect(value));
    if (
      value.type === 'binary_expr' &&
      ['/', 'DIV', '%', 'MOD'].includes(String(value.operator).toUpperCase()) &&
      isZero(value.right)
    )
      found.push(value);
    if (value.type === 'function' && functionName(value) === 'MOD' && isZero(functionArgs(value)[1]))
      found.push(value);
    for (const key in value) if (key !== 'loc') visit(value[key]);
  };
  visit(ast);
  return found;
}

export const rule = defineRule({
  meta: {
    id: 'MOD006',
    name: 'sql-mode.division-by-zero',
    category: 'sql-mode',
    severity: 'error',
    title: 'Division by zero',
    rationale:
      'Division (or MOD) by zero yields NULL. In INSERT/UPDATE with strict mode and ERROR_FOR_DIVISION_BY_ZERO (both default on MySQL 5.7.8+ and MariaDB 10.2.4+) it is ERROR 1365 instead; elsewhere it is NULL with warning 1365 under ERROR_FOR_DIVISION_BY_ZERO and silently NULL without it.',
    appliesTo: ['insert', 'replace', 'update', 'select', 'delete'],
    messages: {
      error: '{{expression}} divides by zero: ERROR 1365 under strict mode + ERROR_FOR_DIVISION_BY_ZERO.',
      isNull: '{{expression}} divides by zero: the result is NULL ({{why}}).',
    },
    docs: {
      antiPattern: 'UPDATE accounts SET ratio = paid / 0 WHERE id = 1',
      bestPractice: 'UPDATE accounts SET ratio = paid / NULLIF(total, 0) WHERE id = 1',
    },
  },
  detect(context) {
    const modes = sqlModeSet(context.server.sqlMode.session, context.flavor);
    const writes = context.kind === 'insert' || context.kind === 'replace' || context.kind === 'update';
    const error =
      writes &&
      modes.strict &&
      modes.has('ERROR_FOR_DIVISION_BY_ZERO') &&
      !hasIgnore(context.ast, context.tolerated);
    for (const node of divisionsByZero(context.ast)) {
      const expression = context.textOf(node) || 'The expression';
      context.report({
        messageId: error ? 'error' : 'isNull',
        data: {
          expression,
          why: modes.has('ERROR_FOR_DIVISION_BY_ZERO')
            ? writes
              ? 'warning 1365: strict mode is off or IGNORE is used'
              : 'warning 1365; a SELECT never fails on it'
            : 'silently: ERROR_FOR_DIVISION_BY_ZERO is off; with it and strict mode an INSERT/UPDATE fails with ERROR 1365',
        },
        severity: error ? 'error' : 'warning',
        span: spanFor(context.sql, node),
        table: null,
        columns: [],
        expression,
        ...(error || modes.has('ERROR_FOR_DIVISION_BY_ZERO')
          ? { predictedError: predictError(1365, context.flavor, {}, !error) }
          : {}),
        notes: ['Fix: guard the divisor, e.g. x / NULLIF(y, 0), or handle the zero case with CASE.'],
      });
    }
  },
});
