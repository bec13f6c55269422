// The token cursor of the schema loader (ddl-load.ts) and the error a reader throws to skip a statement.
//
// Design note: the readers are recursive descent over ddl-tokens.ts's tokens. They accept keywords by
// value (the lexer upper-cases words) and skip what they do not know by balanced parentheses
// (`skipOne`, `skipGroup`, `skipToElementEnd`), so an unknown option or attribute never loses a table.
// A `ParseError` carries the offset in the statement text, which ddl-load.ts turns into line:column.

import type { Token } from './ddl-tokens.js';

export class ParseError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/**
 * A definition the server refuses whole (an unknown character set, an AUTO_INCREMENT column in no
 * key, …): the statement is skipped with the server's reason, never loaded in part.
 */
export class RejectedError extends ParseError {}

/** A cursor over a statement's tokens. */
export class Reader {
  index = 0;
  constructor(
    readonly tokens: Token[],
    readonly text: string,
  ) {}

  peek(ahead = 0): Token | undefined {
    return this.tokens[this.index + ahead];
  }
  atEnd(): boolean {
    return this.index >= this.tokens.length;
  }
  /** True (and consumed) when the next token is the keyword `word`. */
  accept(first: string, second?: string, third?: string): boolean {
    // Fixed parameters, no rest array: this runs for every attribute of every column of a dump.
    const token = this.tokens[this.index];
    if (token === undefined || token.type !== 'word' || token.value !== first) return false;
    if (second === undefined) {
      this.index++;
      return true;
    }
    const next = this.tokens[this.index + 1];
    if (next === undefined || next.type !== 'word' || next.value !== second) return false;
    if (third === undefined) {
      this.index += 2;
      return true;
    }
    const last = this.tokens[this.index + 2];
    if (last === undefined || last.type !== 'word' || last.value !== third) return false;
    this.index += 3;
    return true;
  }
  is(word: string, ahead = 0): boolean {
    const token = this.tokens[this.index + ahead];
    return token?.type === 'word' && token.value === word;
  }
  isPunct(char: string, ahead = 0): boolean {
    const token = this.tokens[this.index + ahead];
    return token?.type === 'punct' && token.value === char;
  }
  acceptPunct(char: string): boolean {
    if (!this.isPunct(char)) return false;
    this.index++;
    return true;
  }
  expectPunct(char: string): Token {
    const token = this.peek();
    if (!token || token.type !== 'punct' || token.value !== char)
      throw new ParseError(
        `expected '${char}'${token ? ` before '${this.text.slice(token.start, token.end)}'` : ' at the end'}`,
        token?.start ?? this.text.length,
      );
    this.index++;
    return token;
  }
  /** An identifier: a backticked name, a double-quoted name, or a bare word. */
  identifier(what: string): string {
    const token = this.peek();
    if (token && (token.type === 'ident' || token.type === 'word' || token.type === 'dstring')) {
      this.index++;
      return token.type === 'word' ? this.text.slice(token.start, token.end) : token.value;
    }
    throw new ParseError(
      `expected ${what}${token ? ` before '${this.text.slice(token.start, token.end)}'` : ' at the end'}`,
      token?.start ?? this.text.length,
    );
  }
  /** `name` or `db.name`. */
  qualifiedName(what: string): { database: string | null; name: string } {
    const first = this.identifier(what);
    if (this.isPunct('.')) {
      this.index++;
      return { database: first, name: this.identifier(what) };
    }
    return { database: null, name: first };
  }
  /** Skip one token, or a whole balanced parenthesised group. */
  skipOne(): void {
    if (this.isPunct('(')) {
      this.skipGroup();
      return;
    }
    this.index++;
  }
  /** Skip `( … )` with nesting; the cursor is on `(`. Returns the offsets inside the parentheses. */
  skipGroup(): { start: number; end: number } {
    const open = this.expectPunct('(');
    let depth = 1;
    while (!this.atEnd()) {
      const token = this.tokens[this.index++]!;
      if (token.type !== 'punct') continue;
      if (token.value === '(') depth++;
      else if (token.value === ')' && --depth === 0) return { start: open.end, end: token.start };
    }
    throw new ParseError("unbalanced '(': the statement ends inside parentheses", open.start);
  }
  /** Skip to the next `,` or `)` at depth 0 (not consumed). */
  skipToElementEnd(): void {
    while (!this.atEnd() && !this.isPunct(',') && !this.isPunct(')')) this.skipOne();
  }
  value(): string | null {
    const token = this.peek();
    if (!token) return null;
    this.index++;
    if (token.type === 'word') return this.text.slice(token.start, token.end);
    return token.value;
  }
}
