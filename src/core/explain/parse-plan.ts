// Entry point: detects which EXPLAIN format an input is (rows, JSON, TREE/ANALYZE text, pasted client output)
// and hands it to the matching parser.
//
// Design note: detection looks only at the outer shape, in this order: an array of row objects → traditional;
// an object with `query_block` → JSON; a single-cell result (`{EXPLAIN: "…"}`, as mysql2 returns FORMAT=JSON,
// TREE and ANALYZE) → its text; text starting with `{` → JSON; `->` → TREE/ANALYZE; `*** 1. row ***` → the
// client's \G output; a `+---+` border → the client's boxed table; a tab-separated header with `select_type`
// → batch output. A \G or boxed result with one EXPLAIN cell holding JSON or TREE text is unwrapped. A hint
// can force the format and tells the flavor where the input cannot (traditional rows). Never throws.

import type { Flavor } from '../flavors/capabilities.js';
import { parseJsonPlan } from './parse-json.js';
import {
  isBoxedText,
  isVerticalText,
  parseBoxedText,
  parseTabSeparatedText,
  parseVerticalText,
  type PastedRowsResult,
} from './parse-pasted.js';
import { parseTraditionalRows, type TraditionalRow } from './parse-traditional.js';
import { parseTreeText } from './parse-tree.js';
import type { PlanFormat, PlanParseError, PlanParseResult } from './plan.js';

/** What the caller knows about the input. */
export interface PlanHint {
  flavor?: Flavor;
  format?: PlanFormat;
}

function fail(message: string, line: number | null = null, column: number | null = null): PlanParseResult {
  return { ok: false, error: { code: 'PARSE_FAILED', message, line, column } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** 1-based line and column of a character offset. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
}

/** JSON.parse that reports where the text broke instead of throwing. */
export function parseJsonText(
  text: string,
): { ok: true; value: unknown } | { ok: false; error: PlanParseError } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = /position (\d+)/.exec(message);
    const lineColumn = /line (\d+) column (\d+)/.exec(message);
    const position = lineColumn
      ? { line: Number(lineColumn[1]), column: Number(lineColumn[2]) }
      : offset
        ? positionOf(text, Number(offset[1]))
        : { line: null, column: null };
    return {
      ok: false,
      error: {
        code: 'PARSE_FAILED',
        message: `The EXPLAIN JSON is not valid JSON (${message.replace(/\s*\(line \d+ column \d+\)/, '')}). Paste the whole document, from the first "{" to the last "}".`,
        ...position,
      },
    };
  }
}

/** A single-cell result: the text of `{EXPLAIN: "…"}` / `{ANALYZE: "…"}` (mysql2 rows or a \G block). */
function singleCell(rows: readonly unknown[]): string | null {
  if (rows.length !== 1 || !isRecord(rows[0])) return null;
  const values = Object.values(rows[0]);
  if (values.length !== 1 || typeof values[0] !== 'string') return null;
  const text = values[0].trim();
  return text.startsWith('{') || text.startsWith('->') || /^<.*>$/.test(text) ? text : null;
}

function fromRows(result: PastedRowsResult, hint: PlanHint): PlanParseResult {
  if (!result.ok) return { ok: false, error: result.error };
  const cell = singleCell(result.rows);
  if (cell !== null) return parsePlan(cell, hint);
  return parseTraditionalRows(result.rows, hint.flavor);
}

function parseText(input: string, hint: PlanHint): PlanParseResult {
  const text = input.replace(/^\uFEFF/, '');
  const trimmed = text.trim();
  if (trimmed === '') return fail('The plan is empty: paste EXPLAIN output or run EXPLAIN first.');
  const format = hint.format;
  if (
    format === 'json' ||
    format === 'analyze-json' ||
    (!format && (trimmed.startsWith('{') || trimmed.startsWith('[')))
  ) {
    const parsed = parseJsonText(text);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    return parsePlan(parsed.value as object, hint);
  }
  if (
    format === 'tree' ||
    format === 'analyze' ||
    (!format && (trimmed.startsWith('->') || /^<.*>$/.test(trimmed)))
  ) {
    return parseTreeText(text);
  }
  if (isVerticalText(text)) return fromRows(parseVerticalText(text), hint);
  if (isBoxedText(text)) return fromRows(parseBoxedText(text), hint);
  const header = trimmed.split('\n')[0] ?? '';
  if (header.includes('\t') && /\bselect_type\b/.test(header))
    return fromRows(parseTabSeparatedText(trimmed), hint);
  return fail(
    'Unrecognised EXPLAIN output. Paste traditional EXPLAIN (\\G rows or the +---+ table), FORMAT=JSON, or FORMAT=TREE / EXPLAIN ANALYZE text.',
    1,
    1,
  );
}

/**
 * Parse any supported EXPLAIN output into the plan model: mysql2 rows (array of row objects or a single
 * `{EXPLAIN: "…"}` cell), a decoded JSON document, or text (JSON, TREE/ANALYZE, \G, boxed, tab-separated).
 * Returns `{ ok: false, error }` with a position instead of throwing.
 */
export function parsePlan(input: string | object, hint: PlanHint = {}): PlanParseResult {
  try {
    if (typeof input === 'string') return parseText(input, hint);
    if (Array.isArray(input)) {
      const cell = singleCell(input);
      if (cell !== null) return parsePlan(cell, hint);
      return parseTraditionalRows(input as TraditionalRow[], hint.flavor);
    }
    if (isRecord(input)) {
      if ('query_block' in input) return parseJsonPlan(input, hint.flavor);
      const cell = singleCell([input]);
      if (cell !== null) return parsePlan(cell, hint);
      if ('table' in input && 'type' in input) return parseTraditionalRows([input], hint.flavor);
    }
    return fail('Unrecognised EXPLAIN value: expected EXPLAIN rows, a FORMAT=JSON document or EXPLAIN text.');
  } catch (error) {
    // Parsers are written not to throw; this is the last line of defence for the "never crash" promise.
    return fail(`Could not read this plan: ${error instanceof Error ? error.message : String(error)}`);
  }
}
