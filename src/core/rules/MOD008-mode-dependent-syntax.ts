// MOD008: syntax whose meaning depends on sql_mode — `||` (PIPES_AS_CONCAT), "double quotes" (ANSI_QUOTES), backslash escapes (NO_BACKSLASH_ESCAPES).

import { predictError, sqlModeSet } from '../sqlmode/modes.js';
import { spanFor } from '../sqlmode/statement.js';
import { type AstNode, isNode } from '../sql/ast.js';
import { defineRule } from './engine.js';

/** Every node once, nested queries included (a subquery's `ast` is one of its wrapper's keys). */
function walk(ast: AstNode, visit: (node: AstNode) => void): void {
  const step = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(step);
    if (!isNode(value)) return;
    visit(value);
    for (const key in value) if (key !== 'loc') step(value[key]);
  };
  step(ast);
}

/** Raw single-quoted literals of the statement text that contain a backslash. */
function backslashLiterals(sql: string): { text: string; start: number }[] {
  const found: { text: string; start: number }[] = [];
  const pattern = /'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"|`[^`]*`|--[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\//g;
  for (const match of sql.matchAll(pattern)) {
    if (match[0].startsWith("'") && match[0].includes('\\'))
      found.push({ text: match[0], start: match.index });
  }
  return found;
}

export const rule = defineRule({
  meta: {
    id: 'MOD008',
    name: 'sql-mode.mode-dependent-syntax',
    category: 'sql-mode',
    severity: 'warning',
    title: 'Syntax whose meaning depends on sql_mode',
    rationale:
      'The same text means different things under different modes: || is OR unless PIPES_AS_CONCAT makes it concatenation, "x" is a string unless ANSI_QUOTES makes it an identifier, and \'a\\nb\' holds a newline unless NO_BACKSLASH_ESCAPES keeps the backslash. Results change silently when the mode changes.',
    appliesTo: ['select', 'insert', 'replace', 'update', 'delete'],
    messages: {
      pipesOr:
        '{{expression}}: || means OR here (PIPES_AS_CONCAT is off), so strings are compared as numbers and the result is 0 or 1; under PIPES_AS_CONCAT (ANSI) it concatenates. Use OR or CONCAT() to say which.',
      pipesConcat:
        '{{expression}}: || concatenates here (PIPES_AS_CONCAT), but means OR on servers without the mode. Use CONCAT() to be portable.',
      ansiQuotes:
        '"{{value}}" is an identifier under ANSI_QUOTES: the server looks for a column named {{value}} (ERROR 1054 if there is none). Use single quotes for strings.',
      doubleQuoted:
        '"{{value}}" is a string here, but an identifier (column name) under ANSI_QUOTES. Use single quotes for strings.',
      backslash:
        '{{literal}} contains a backslash: it is an escape here, but a plain character under NO_BACKSLASH_ESCAPES (and vice versa), so the stored or compared value changes with the mode.',
      backslashLiteral:
        '{{literal}} contains a backslash, which NO_BACKSLASH_ESCAPES keeps as an ordinary character: the value differs from the same text on servers without the mode.',
    },
    docs: {
      antiPattern: 'SELECT first_name || \' \' || last_name FROM users WHERE note = "vip"',
      bestPractice: "SELECT CONCAT(first_name, ' ', last_name) FROM users WHERE note = 'vip'",
    },
  },
  detect(context) {
    const modes = sqlModeSet(context.server.sqlMode.session, context.flavor);
    walk(context.ast, (node) => {
      if (node.type === 'binary_expr' && node.operator === '||') {
        const expression = context.textOf(node) || '||';
        context.report({
          messageId: modes.has('PIPES_AS_CONCAT') ? 'pipesConcat' : 'pipesOr',
          data: { expression },
          span: spanFor(context.sql, node, '||'),
          table: null,
          columns: [],
          expression,
        });
      }
      if (node.type === 'double_quote_string' && typeof node.value === 'string') {
        const ansi = modes.has('ANSI_QUOTES');
        context.report({
          messageId: ansi ? 'ansiQuotes' : 'doubleQuoted',
          data: { value: node.value },
          severity: ansi ? 'error' : 'warning',
          span: spanFor(context.sql, node, `"${node.value}"`),
          table: null,
          columns: [],
          expression: `"${node.value}"`,
          ...(ansi
            ? {
                predictedError: predictError(1054, context.flavor, {
                  column: node.value,
                  clause: context.flavor === 'mariadb' ? 'SELECT' : 'field list',
                }),
                notes: ['Predicted when no column of that name exists in the tables of the statement.'],
              }
            : {}),
        });
      }
    });
    for (const literal of backslashLiterals(context.sql)) {
      context.report({
        messageId: modes.has('NO_BACKSLASH_ESCAPES') ? 'backslashLiteral' : 'backslash',
        data: { literal: literal.text },
        severity: 'info',
        span: { start: literal.start, end: literal.start + literal.text.length },
        table: null,
        columns: [],
        expression: literal.text,
      });
    }
  },
});
