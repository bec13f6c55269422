// The canonical form of an index expression, so an expression the design proposes matches the server's
// stored form of it (information_schema.STATISTICS.EXPRESSION, COLUMNS.GENERATION_EXPRESSION).
//
// Design note: the servers store their own spelling, measured on MySQL 8.0.33 and MariaDB 10.11:
//   DATE(d)                       → cast(`d` as date)                           (both)
//   LOWER(s) / UPPER(s)           → lower(`s`) (MySQL), lcase(`s`) / ucase(`s`) (MariaDB)
//   SUBSTRING(s, 1, 3)            → substr(`s`,1,3)                             (both)
//   j->>'$.a'                     → json_unquote(json_extract(`j`,_utf8mb4\'$.a\')) (MySQL; the
//                                   information_schema text escapes quotes and adds a charset introducer)
//   n * 2 + 3                     → ((`n` * 2) + 3) (MySQL), `n` * 2 + 3 (MariaDB)
// So the text is unescaped and stripped of charset introducers, parsed, and printed from the AST: names
// lower-case, synonyms folded (lcase/ucase/substring/date()/->>/->), every binary operation in one pair
// of parentheses (so grouping the server added or dropped does not matter, and precedence is kept),
// qualifiers dropped. Text the grammar cannot read falls back to a whitespace-, backquote- and
// case-insensitive comparison.

import { columnName, functionName, isNode, type AstNode } from '../sql/ast.js';
import { parseFragment } from '../sql/parse.js';

const SYNONYMS: Readonly<Record<string, string>> = {
  lcase: 'lower',
  ucase: 'upper',
  substring: 'substr',
  mid: 'substr',
  character_length: 'char_length',
  pow: 'power',
};

const cache = new Map<string, string>();

/** A key equal for two texts of the same index expression, whichever server or user spelled it. */
export function expressionKey(text: string): string {
  const known = cache.get(text);
  if (known !== undefined) return known;
  const unescaped = text
    .replace(/\\(['"\\])/g, '$1')
    .replace(/_(utf8mb4|utf8mb3|utf8|latin1|binary|ascii)(?=')/gi, '');
  let key: string | undefined;
  const parsed = parseFragment(`SELECT ${unescaped}`, 'mysql');
  if (
    parsed.ok &&
    !parsed.ast._next &&
    Array.isArray(parsed.ast.columns) &&
    parsed.ast.columns.length === 1
  ) {
    const item = parsed.ast.columns[0];
    if (isNode(item) && isNode(item.expr)) key = print(item.expr);
  }
  key ??= `~${unescaped.replace(/[`\s]/g, '').toLowerCase()}`;
  if (cache.size > 5000) cache.clear();
  cache.set(text, key);
  return key;
}

function print(node: unknown): string {
  if (Array.isArray(node)) return node.map(print).join(',');
  if (!isNode(node)) return JSON.stringify(node ?? null);
  switch (node.type) {
    case 'column_ref':
      return `\`${(columnName(node) ?? '').toLowerCase()}\``;
    case 'binary_expr': {
      const operator = String(node.operator).toLowerCase();
      const left = print(node.left);
      const right = print(node.right);
      if (operator === '->>') return `json_unquote(json_extract(${left},${right}))`;
      if (operator === '->') return `json_extract(${left},${right})`;
      return `(${left}${operator}${right})`;
    }
    case 'function': {
      const name = functionName(node).toLowerCase();
      const args = isNode(node.args) ? node.args.value : undefined;
      const list = Array.isArray(args) ? args : args === undefined ? [] : [args];
      if (name === 'date' && list.length === 1) return `cast(${print(list[0])} as date)`;
      return `${SYNONYMS[name] ?? name}(${list.map(print).join(',')})`;
    }
    case 'cast': {
      const targets = Array.isArray(node.target) ? node.target : [node.target];
      const type = targets
        .map((target) => (isNode(target) ? String(target.dataType ?? '').toLowerCase() : ''))
        .join(' ');
      return `cast(${print(node.expr)} as ${type})`;
    }
    case 'number':
      return String(node.value);
    case 'single_quote_string':
    case 'double_quote_string':
    case 'string':
      return `'${String(node.value)}'`;
    case 'expr_list':
      return `(${print(node.value)})`;
    default: {
      const rest: AstNode = {};
      for (const key of Object.keys(node).sort())
        if (key !== 'loc' && key !== 'parentheses') rest[key] = node[key];
      return JSON.stringify(rest, (key, value: unknown) =>
        key === 'loc' || key === 'parentheses' ? undefined : value,
      ).toLowerCase();
    }
  }
}
