// Runs of plain comparisons joined by AND (`a.x = 1 AND b.y = a.id AND (c = 'v' OR d IS NULL)`): parsed by a small exact reader, not the grammar.
//
// Design note: node-sql-parser's MySQL grammar spends ~40 µs on every primary expression (each one
// descends the whole precedence chain and tries some thirty alternatives — functions, CAST, CASE,
// aggregates — before it reaches a column or a literal), so a WHERE or ON clause made of many
// plain comparisons, the bulk of ORM-written SQL, costs milliseconds. Before parsing, a token scan
// finds maximal runs of such conditions and replaces each run with one placeholder column, a
// backtick identifier (`` `z0` ``, `` `z1` ``, …). After parsing, every `loc` is moved back to the
// statement's own offsets, lines and columns, and each placeholder is replaced by the nodes the
// grammar would have built, spliced into the surrounding AND chain exactly as its chain building
// does. Anything the reader is unsure of stays in the text for the grammar.
//
// What a run may contain (every token kind checked, anything else ends the run):
// - A comparison `column OP operand`: column = `c`, `t.c` (plain or backtick identifiers, no
//   keywords); OP = `=`, `<>`, `!=`, `<`, `<=`, `>`, `>=` with a column, an unsigned integer of at
//   most 15 digits or a single-quoted string without backslashes on the right; `[NOT] LIKE 'str'`
//   (no ESCAPE); `IS [NOT] NULL`.
// - A parenthesised group of such comparisons (or groups) joined by one operator only (all AND or
//   all OR: the grammar's precedence inside WHERE parentheses is left-to-right, so mixed groups are
//   left to it).
// - Elements joined by AND. No comments anywhere inside a run or right after it.
// Where a run may stand: right after WHERE, ON, HAVING, a boolean AND (not BETWEEN's), or a
// parenthesis opened in such a place; followed by AND, OR, `)`, `,`, `;`, the end, or a clause
// keyword. After OR it may not start: WHERE chains are built left to right, so `x OR run` would be
// re-associated.
// How nodes are built (as the grammar builds them, checked by a property test against full
// parses): comparisons `{type: 'binary_expr', operator, left, right, loc}` whose `loc` ends after
// the whitespace that follows the right operand; column refs `{type: 'column_ref', table, column,
// collate: null, loc}` with a backtick table as `{type: 'backticks_quote_string', value}`;
// literals without `loc`; every AND/OR node of one chain shares the chain's `loc`; a group's root
// gets `parentheses: true`. If a placeholder is not found exactly once where expected, the caller
// parses the original text instead. The `columnList` / `tableList` the grammar attaches to nested
// queries (its own bookkeeping, unused here) would name the placeholder, so they are dropped.
//
// Modules: this one finds and elides the runs; condition-runs-reader.ts reads them (shared with the
// restore pass); condition-runs-restore.ts puts them back after parsing.

import type { AstNode } from './ast.js';
import { chainItems, type Element, Reader } from './condition-runs-reader.js';
import type { ConditionElision, ConditionRun } from './condition-runs-restore.js';
import { tokenize, type Token } from './tolerant.js';

export { restoreConditionRuns, type ConditionElision, type ConditionRun } from './condition-runs-restore.js';

/** Runs with fewer comparisons than this are left to the grammar (one already saves ~40 µs: `ON a.id = b.a_id`). */
export const MIN_RUN_COMPARISONS = 1;

/**
 * Replace runs of plain conditions with placeholders, or undefined when the statement has none
 * worth replacing. The text is shorter; `restoreConditionRuns` maps positions back.
 */
export function elideConditionRuns(
  sql: string,
  minComparisons = MIN_RUN_COMPARISONS,
): ConditionElision | undefined {
  // Cheap exit: no clause that could hold a run.
  if (!/\b(WHERE|ON|HAVING)\b/i.test(sql)) return undefined;
  const reader = new Reader(sql, tokenize(sql));
  const runs: ConditionRun[] = [];
  const tokens = reader.tokens;
  let text = '';
  let from = 0;
  for (let index = 1; index < tokens.length; index++) {
    // Two or more plain joins in a row: one `JOIN \`zN\`` (a table_ref costs the grammar as much as a condition).
    const previous = tokens[index - 1];
    if (previous && (previous.kind !== 'symbol' || previous.text === ')')) {
      const joins: AstNode[] = [];
      let cursor = index;
      let end = 0;
      for (let join = reader.join(cursor); join; join = reader.join(cursor)) {
        joins.push(join.entry);
        cursor = join.next;
        end = join.end;
      }
      if (joins.length >= 2) {
        const name = `z${runs.length.toString(36)}`;
        const start = (tokens[index] as Token).start;
        text += sql.slice(from, start);
        const placeholder = `JOIN \`${name}\``;
        runs.push({
          start,
          end,
          elidedStart: text.length,
          name,
          elements: [],
          locEnd: end,
          trailingSpace: 0,
          placeholderLength: placeholder.length,
          joins,
        });
        text += placeholder;
        from = end;
        index = cursor - 1;
        continue;
      }
    }
    if (!reader.canStart(index)) continue;
    const elements = reader.run(index);
    if (!elements) continue;
    const comparisons = elements.reduce((sum, element) => sum + element.comparisons, 0);
    const first = elements[0] as Element;
    const last = elements[elements.length - 1] as Element;
    const name = `z${runs.length.toString(36)}`;
    if (comparisons < minComparisons || last.end - first.start < name.length + 2) continue;
    text += sql.slice(from, first.start);
    runs.push({
      start: first.start,
      end: last.end,
      elidedStart: text.length,
      name,
      elements: chainItems(elements, reader),
      locEnd: last.locEnd,
      trailingSpace: last.swallows ? 0 : (reader.spaceAfter(last.end, last.next) ?? 0),
      placeholderLength: name.length + 2,
    });
    // A backtick identifier: nothing can run into it, and the grammar reads it in a few steps
    // (blanking the run with spaces instead would cost ~1 µs per space).
    text += `\`${name}\``;
    from = last.end;
    index = last.next - 1;
  }
  if (runs.length === 0) return undefined;
  text += sql.slice(from);
  return { text, runs };
}
