// The exact reader behind condition runs: reads one statement's tokens into the nodes node-sql-parser
// would build, or gives up (undefined) on anything it does not know exactly. Shared by the elision
// (condition-runs.ts, which holds the design note: what a run may contain and how nodes are built) and
// the restore pass (condition-runs-restore.ts, which uses its positions and chain building).

import type { AstNode } from './ast.js';
import { RESERVED_WORDS } from './completion-words.js';
import {
  BACKTICK_IDENTIFIER,
  FOLLOW_WORDS,
  FUNCTIONS,
  IDENTIFIER,
  INTEGER,
  SPECIAL_WORDS,
  START_WORDS,
} from './condition-runs-words.js';
import type { Token } from './tolerant.js';
export interface Element {
  node: AstNode;
  /** Index of the first token after the element. */
  next: number;
  /** Offset where the element starts (its `(` for a group). */
  start: number;
  /** End of its last token, and end of its `loc` (after following whitespace). */
  end: number;
  locEnd: number;
  comparisons: number;
  /** Does its `loc` end after the whitespace that follows it? Not for `IN (…)` (see joinedByChain). */
  swallows: boolean;
}

export type Loc = {
  start: { offset: number; line: number; column: number };
  end: { offset: number; line: number; column: number };
};

/** Reads one statement's tokens; every method returns undefined for anything it does not know exactly. */
export class Reader {
  private lineStarts: number[] | undefined;
  private readonly betweenAnds = new Set<number>();

  constructor(
    private readonly sql: string,
    readonly tokens: Token[],
  ) {
    // The AND of `x BETWEEN a AND b` is not a boolean AND.
    const pending = new Map<number, boolean>();
    tokens.forEach((token, index) => {
      const word = token.kind === 'word' ? token.text.toUpperCase() : '';
      if (word === 'BETWEEN') pending.set(token.depth, true);
      else if (word === 'AND' && pending.get(token.depth)) {
        this.betweenAnds.add(index);
        pending.set(token.depth, false);
      }
    });
  }

  /** The grammar's `{offset, line, column}` (1-based line and column) of an offset. */
  point(offset: number): { offset: number; line: number; column: number } {
    if (!this.lineStarts) {
      this.lineStarts = [0];
      for (let index = 0; index < this.sql.length; index++)
        if (this.sql.charCodeAt(index) === 10) this.lineStarts.push(index + 1);
    }
    const starts = this.lineStarts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return { offset, line: low + 1, column: offset - (starts[low] ?? 0) + 1 };
  }

  loc(start: number, end: number): Loc {
    return { start: this.point(start), end: this.point(end) };
  }

  word(index: number): string {
    const token = this.tokens[index];
    return token?.kind === 'word' ? token.text.toUpperCase() : '';
  }

  symbol(index: number, text: string): boolean {
    const token = this.tokens[index];
    return token?.kind === 'symbol' && token.text === text;
  }

  private adjacent(left: number, right: number): boolean {
    const a = this.tokens[left];
    const b = this.tokens[right];
    return a !== undefined && b !== undefined && a.end === b.start;
  }

  /** Length of the whitespace after `end` (undefined when a comment is there). */
  spaceAfter(end: number, nextToken: number): number | undefined {
    const after = this.afterSpace(end, nextToken);
    return after === undefined ? undefined : after - end;
  }

  /** Offset after the whitespace that follows `end`, or undefined when a comment is there. */
  private afterSpace(end: number, nextToken: number): number | undefined {
    const limit = this.tokens[nextToken]?.start ?? this.sql.length;
    let index = end;
    while (index < limit && /\s/.test(this.sql[index] ?? '')) index++;
    return index === limit ? index : undefined;
  }

  /** Only whitespace between the tokens `from` .. `to` (inclusive)? */
  private onlySpaceBetween(from: number, to: number): boolean {
    for (let index = from; index < to; index++) {
      const a = this.tokens[index];
      const b = this.tokens[index + 1];
      if (!a || !b) return false;
      for (let offset = a.end; offset < b.start; offset++)
        if (!/\s/.test(this.sql[offset] ?? '')) return false;
    }
    return true;
  }

  /** A plain or backtick identifier usable as a name, with its node value. */
  private name(index: number, part: 'table' | 'column'): unknown {
    const token = this.tokens[index];
    if (!token) return undefined;
    if (token.kind === 'word') {
      if (!IDENTIFIER.test(token.text)) return undefined;
      const upper = token.text.toUpperCase();
      if (RESERVED_WORDS.has(upper) || SPECIAL_WORDS.has(upper)) return undefined;
      return token.text;
    }
    if (token.kind === 'identifier' && BACKTICK_IDENTIFIER.test(token.text)) {
      const value = token.text.slice(1, -1);
      return part === 'table' ? { type: 'backticks_quote_string', value } : value;
    }
    return undefined;
  }

  /** `c` or `t.c` at `index`. */
  column(index: number): { node: AstNode; next: number } | undefined {
    const first = this.name(index, 'column');
    if (first === undefined) return undefined;
    let next = index + 1;
    let node: AstNode;
    const token = this.tokens[index] as Token;
    if (this.symbol(next, '.')) {
      const table = this.name(index, 'table');
      const column = this.name(next + 1, 'column');
      if (table === undefined || column === undefined) return undefined;
      if (!this.adjacent(index, next) || !this.adjacent(next, next + 1)) return undefined;
      const last = this.tokens[next + 1] as Token;
      node = { type: 'column_ref', table, column, collate: null, loc: this.loc(token.start, last.end) };
      next += 2;
    } else {
      node = {
        type: 'column_ref',
        table: null,
        column: first,
        collate: null,
        loc: this.loc(token.start, token.end),
      };
    }
    // `a.b.c`, `f(…)`, `c.*`: not a plain column.
    if (this.symbol(next, '.') || this.symbol(next, '(')) return undefined;
    return { node, next };
  }

  /** `NAME(column)` for the one-argument functions the advisor meets most, name glued to `(`. */
  functionCall(index: number): { node: AstNode; next: number } | undefined {
    const token = this.tokens[index];
    if (token?.kind !== 'word' || !FUNCTIONS.has(token.text.toUpperCase())) return undefined;
    if (!this.symbol(index + 1, '(') || !this.adjacent(index, index + 1)) return undefined;
    const argument = this.column(index + 2);
    if (!argument || !this.symbol(argument.next, ')')) return undefined;
    const close = this.tokens[argument.next] as Token;
    // Like a comparison's, the call's `loc` ends after the whitespace that follows it.
    const end = this.afterSpace(close.end, argument.next + 1);
    if (end === undefined) return undefined;
    return {
      node: {
        type: 'function',
        name: { name: [{ type: 'default', value: token.text }] },
        args: { type: 'expr_list', value: [argument.node] },
        over: null,
        loc: this.loc(token.start, end),
      },
      next: argument.next + 1,
    };
  }

  /** An unsigned integer or a single-quoted string without backslashes. */
  literal(index: number): { node: AstNode; next: number } | undefined {
    const token = this.tokens[index];
    if (!token) return undefined;
    if (token.kind === 'word') {
      if (!INTEGER.test(token.text) || this.symbol(index + 1, '.')) return undefined;
      return { node: { type: 'number', value: Number(token.text) }, next: index + 1 };
    }
    if (token.kind === 'string' && token.text.startsWith("'") && !token.text.includes('\\')) {
      if (token.text.length < 2 || !token.text.endsWith("'")) return undefined;
      // A string right after another (`'a' 'b'` concatenation) is not one literal.
      if (this.tokens[index + 1]?.kind === 'string') return undefined;
      return { node: { type: 'single_quote_string', value: token.text.slice(1, -1) }, next: index + 1 };
    }
    return undefined;
  }

  /** The comparison operator at `index`: its AST text and the index after it. */
  private operator(index: number): { operator: string; next: number } | undefined {
    const token = this.tokens[index];
    if (!token) return undefined;
    if (token.kind === 'symbol') {
      const second = this.tokens[index + 1];
      const pair = second?.kind === 'symbol' && second.start === token.end ? token.text + second.text : '';
      let operator: string;
      let next: number;
      if (pair === '<=' || pair === '<>' || pair === '>=' || pair === '!=') {
        operator = pair;
        next = index + 2;
      } else if (token.text === '=' || token.text === '<' || token.text === '>') {
        operator = token.text;
        next = index + 1;
      } else return undefined;
      // `<=>`, `<<`, `>>`, `==`, `=>`: not one of ours.
      const after = this.tokens[next];
      if (
        after?.kind === 'symbol' &&
        after.start === this.tokens[next - 1]?.end &&
        '<>=!'.includes(after.text)
      )
        return undefined;
      return { operator, next };
    }
    return undefined;
  }

  /** One comparison at `index`. */
  comparison(index: number): Element | undefined {
    const left = this.column(index) ?? this.functionCall(index);
    if (!left) return undefined;
    const first = this.tokens[index] as Token;
    let right: { node: AstNode; next: number } | undefined;
    let operator: string;
    const word = this.word(left.next);
    if (word === 'IS') {
      const not = this.word(left.next + 1) === 'NOT';
      const at = left.next + (not ? 2 : 1);
      if (this.word(at) !== 'NULL') return undefined;
      operator = not ? 'IS NOT' : 'IS';
      right = { node: { type: 'null', value: null }, next: at + 1 };
    } else if (word === 'LIKE' || (word === 'NOT' && this.word(left.next + 1) === 'LIKE')) {
      const at = left.next + (word === 'NOT' ? 2 : 1);
      const literal = this.literal(at);
      if (!literal || literal.node.type !== 'single_quote_string') return undefined;
      if (this.word(literal.next) === 'ESCAPE') return undefined;
      operator = word === 'NOT' ? 'NOT LIKE' : 'LIKE';
      right = literal;
    } else if (word === 'BETWEEN' || (word === 'NOT' && this.word(left.next + 1) === 'BETWEEN')) {
      const at = left.next + (word === 'NOT' ? 2 : 1);
      const low = this.literal(at);
      const high = low && this.word(low.next) === 'AND' ? this.literal(low.next + 1) : undefined;
      if (!low || !high) return undefined;
      operator = word === 'NOT' ? 'NOT BETWEEN' : 'BETWEEN';
      right = { node: { type: 'expr_list', value: [low.node, high.node] }, next: high.next };
    } else {
      const op = this.operator(left.next);
      if (!op) return undefined;
      operator = op.operator;
      right = this.literal(op.next) ?? this.column(op.next);
    }
    if (!right) return undefined;
    const last = this.tokens[right.next - 1] as Token;
    if (!this.onlySpaceBetween(index, right.next - 1)) return undefined;
    const locEnd = this.afterSpace(last.end, right.next);
    if (locEnd === undefined) return undefined;
    return {
      node: {
        type: 'binary_expr',
        operator,
        left: left.node,
        right: right.node,
        loc: this.loc(first.start, locEnd),
      },
      next: right.next,
      start: first.start,
      end: last.end,
      locEnd,
      comparisons: 1,
      swallows: true,
    };
  }

  /** `column [NOT] IN (literal, …)`: its `loc` ends at the `)`, whitespace after it is not its own. */
  private inList(index: number): Element | undefined {
    const left = this.column(index);
    if (!left) return undefined;
    const not = this.word(left.next) === 'NOT';
    const keyword = left.next + (not ? 1 : 0);
    if (this.word(keyword) !== 'IN' || !this.symbol(keyword + 1, '(')) return undefined;
    const items: AstNode[] = [];
    let cursor = keyword + 2;
    for (;;) {
      const literal = this.literal(cursor);
      if (!literal) return undefined;
      items.push(literal.node);
      cursor = literal.next;
      if (this.symbol(cursor, ',')) {
        cursor++;
        continue;
      }
      break;
    }
    if (!this.symbol(cursor, ')') || !this.onlySpaceBetween(index, cursor)) return undefined;
    const first = this.tokens[index] as Token;
    const close = this.tokens[cursor] as Token;
    if (this.afterSpace(close.end, cursor + 1) === undefined) return undefined;
    return {
      node: {
        type: 'binary_expr',
        operator: not ? 'NOT IN' : 'IN',
        left: left.node,
        right: { type: 'expr_list', value: items },
        loc: this.loc(first.start, close.end),
      },
      next: cursor + 1,
      start: first.start,
      end: close.end,
      locEnd: close.end,
      comparisons: 1,
      swallows: false,
    };
  }

  /** A comparison, an IN list (not inside groups), or a parenthesised group of elements joined by one operator. */
  element(index: number, inGroup = false): Element | undefined {
    if (!this.symbol(index, '(')) return this.comparison(index) ?? (inGroup ? undefined : this.inList(index));
    const open = this.tokens[index] as Token;
    const items: Element[] = [];
    let operator = '';
    let cursor = index + 1;
    for (;;) {
      const item = this.element(cursor, true);
      if (!item) return undefined;
      items.push(item);
      cursor = item.next;
      const word = this.word(cursor);
      if (word === 'AND' || word === 'OR') {
        if (operator && operator !== word) return undefined;
        operator = word;
        cursor++;
        continue;
      }
      break;
    }
    if (!this.symbol(cursor, ')')) return undefined;
    if (!this.onlySpaceBetween(index, cursor)) return undefined;
    // `((…))`: the grammar keeps one parentheses flag; leave such nesting to it.
    const first = items[0] as Element;
    if (items.length === 1 && first.node.parentheses === true) return undefined;
    const close = this.tokens[cursor] as Token;
    const locEnd = this.afterSpace(close.end, cursor + 1);
    if (locEnd === undefined) return undefined;
    const inner = (items[items.length - 1] as Element).locEnd;
    const root =
      items.length === 1
        ? { ...first.node }
        : chain(
            items.map((item) => item.node),
            operator,
            this.loc(first.start, inner),
          );
    root.parentheses = true;
    return {
      node: root,
      next: cursor + 1,
      start: open.start,
      end: close.end,
      locEnd,
      comparisons: items.reduce((sum, item) => sum + item.comparisons, 0),
      swallows: true,
    };
  }

  /** Is the token at `index` a `(` opened where a condition is expected? */
  private booleanParen(index: number): boolean {
    if (!this.symbol(index, '(')) return false;
    const word = this.word(index - 1);
    if (START_WORDS.has(word) || word === 'OR' || word === 'NOT') return true;
    if (word === 'AND') return !this.betweenAnds.has(index - 1);
    return this.booleanParen(index - 1);
  }

  /** May a run start at token `index`? */
  canStart(index: number): boolean {
    if (index === 0) return false;
    const token = this.tokens[index] as Token;
    // The placeholder must not run into a word before it (`WHERE(a=1 …)`).
    if (/[A-Za-z0-9_$]/.test(this.sql[token.start - 1] ?? '')) return false;
    const word = this.word(index - 1);
    if (START_WORDS.has(word)) return true;
    if (word === 'AND') return !this.betweenAnds.has(index - 1) && this.joinedByChain(index - 2);
    return this.booleanParen(index - 1);
  }

  /**
   * Does the condition ending at token `index` leave the AND after it to the clause's chain? The
   * grammar's own `a AND b` rule needs whitespace before AND, which most conditions swallow — but
   * not one ending in `IN (…)` or `ESCAPE '!'`, for instance: then that rule joins it to the next
   * condition with a `loc` of its own, which a placeholder would change. So only endings known to
   * swallow it qualify: `OP value`, `IS [NOT] NULL`, `LIKE 'x'`, a function call after OP or a
   * parenthesised condition.
   */
  private joinedByChain(index: number): boolean {
    const token = this.tokens[index];
    if (!token) return false;
    const comparisonBefore = (at: number): boolean =>
      ['=', '<', '>'].some((symbol) => this.symbol(at, symbol)) ||
      this.word(at) === 'LIKE' ||
      // `x BETWEEN a AND b`: swallows the whitespace after b like a comparison.
      (this.word(at) === 'AND' && this.betweenAnds.has(at));
    if (this.symbol(index, ')')) {
      let open = index - 1;
      while (open >= 0 && !(this.symbol(open, '(') && (this.tokens[open] as Token).depth === token.depth))
        open--;
      if (open <= 0) return false;
      if (this.booleanParen(open)) return true;
      // `OP f(…)`: a function call on the right of a comparison.
      return this.name(open - 1, 'column') !== undefined && comparisonBefore(open - 2);
    }
    if (this.word(index) === 'NULL')
      return (
        this.word(index - 1) === 'IS' || (this.word(index - 1) === 'NOT' && this.word(index - 2) === 'IS')
      );
    if (this.literal(index) === undefined && this.name(index, 'column') === undefined) return false;
    if (this.symbol(index - 1, '.')) return comparisonBefore(index - 3);
    return comparisonBefore(index - 1);
  }

  /** The join keyword(s) at `index` as the AST spells them, and the index after JOIN. */
  private joinKeyword(index: number): { join: string; next: number } | undefined {
    const word = this.word(index);
    if (word === 'JOIN') return { join: 'INNER JOIN', next: index + 1 };
    if (word === 'STRAIGHT_JOIN') return { join: 'STRAIGHT_JOIN', next: index + 1 };
    if (word === 'INNER' || word === 'CROSS') {
      return this.word(index + 1) === 'JOIN' ? { join: `${word} JOIN`, next: index + 2 } : undefined;
    }
    if (word === 'LEFT' || word === 'RIGHT') {
      const outer = this.word(index + 1) === 'OUTER' ? 1 : 0;
      return this.word(index + 1 + outer) === 'JOIN'
        ? { join: `${word} JOIN`, next: index + 2 + outer }
        : undefined;
    }
    return undefined;
  }

  /**
   * `JOIN t [[AS] a] ON run` at `index`, where the run is the whole ON condition: the FROM entry
   * the grammar builds (`{db, table, as, loc, join, on}`; the `loc` covers the table and alias, or
   * the table and the whitespace after it when there is no alias).
   */
  join(index: number): { entry: AstNode; next: number; end: number } | undefined {
    const keyword = this.joinKeyword(index);
    if (!keyword) return undefined;
    const table = this.name(keyword.next, 'column');
    if (typeof table !== 'string' || this.symbol(keyword.next + 1, '.') || this.symbol(keyword.next + 1, '('))
      return undefined;
    const tableToken = this.tokens[keyword.next] as Token;
    let cursor = keyword.next + 1;
    const withAs = this.word(cursor) === 'AS';
    if (withAs) cursor++;
    let alias: string | null = null;
    let locEnd: number | undefined;
    if (this.word(cursor) !== 'ON') {
      const name = this.name(cursor, 'column');
      if (typeof name !== 'string' || this.tokens[cursor]?.kind !== 'word') return undefined;
      alias = name;
      locEnd = (this.tokens[cursor] as Token).end;
      cursor++;
    } else if (withAs) return undefined;
    else locEnd = this.afterSpace(tableToken.end, cursor);
    if (locEnd === undefined || this.word(cursor) !== 'ON') return undefined;
    if (!this.onlySpaceBetween(index, cursor + 1)) return undefined;
    const elements = this.run(cursor + 1);
    const last = elements?.[elements.length - 1];
    const first = elements?.[0];
    if (!elements || !first || !last || !last.swallows) return undefined;
    // The run must be the whole condition: what follows ends the ON clause.
    const after = last.next;
    if (!(this.joinKeyword(after) || this.canEnd(after)) || ['AND', 'OR'].includes(this.word(after)))
      return undefined;
    return {
      entry: {
        db: null,
        table,
        as: alias,
        loc: this.loc(tableToken.start, locEnd),
        join: keyword.join,
        on: chain(chainItems(elements, this), 'AND', this.loc(first.start, last.locEnd)),
      },
      next: after,
      end: last.end,
    };
  }

  /** May a run end before token `index`? */
  canEnd(index: number): boolean {
    const token = this.tokens[index];
    if (!token) return true;
    if (token.kind === 'symbol') return token.text === ')' || token.text === ',' || token.text === ';';
    return FOLLOW_WORDS.has(this.word(index));
  }

  /** The longest run starting at `index`: elements joined by AND, ending where a run may end. */
  run(index: number): Element[] | undefined {
    const elements: Element[] = [];
    let cursor = index;
    for (;;) {
      const element = this.element(cursor);
      if (!element) break;
      elements.push(element);
      if (this.word(element.next) !== 'AND' || this.betweenAnds.has(element.next)) break;
      cursor = element.next + 1;
    }
    // The run's placeholder swallows the whitespace after it, so its last element must too.
    // The placeholder swallows the whitespace after it. A last element that does not (an IN list) is
    // fine before a clause keyword or `)` (restore moves the chain's end back), not before AND/OR,
    // where the grammar would join it to the next condition first.
    const last = (): Element | undefined => elements[elements.length - 1];
    const fits = (element: Element): boolean =>
      this.canEnd(element.next) &&
      (element.swallows ||
        (!['AND', 'OR'].includes(this.word(element.next)) &&
          this.afterSpace(element.end, element.next) !== undefined));
    while (elements.length > 0 && !fits(last() as Element)) elements.pop();
    return elements.length > 0 ? elements : undefined;
  }
}
/** `a OP b OP c` built left to right, every node with the chain's `loc`. */
export function chain(nodes: AstNode[], operator: string, loc: Loc): AstNode {
  let result = nodes[0] as AstNode;
  for (const node of nodes.slice(1))
    result = { type: 'binary_expr', operator, left: result, right: node, loc };
  return result;
}

/**
 * Group a run's elements as the grammar does: after an element that leaves the whitespace before
 * AND (an IN list), its `a AND b` rule takes the next element too, with a `loc` from the first to
 * the end of the last; the clause's chain then joins these items.
 */
export function chainItems(elements: Element[], reader: Reader): AstNode[] {
  const items: AstNode[] = [];
  for (let index = 0; index < elements.length;) {
    const first = elements[index] as Element;
    let end = index;
    while (end + 1 < elements.length && !(elements[end] as Element).swallows) end++;
    const group = elements.slice(index, end + 1);
    const last = group[group.length - 1] as Element;
    items.push(
      group.length === 1
        ? first.node
        : chain(
            group.map((element) => element.node),
            'AND',
            reader.loc(first.start, last.locEnd),
          ),
    );
    index = end + 1;
  }
  return items;
}
