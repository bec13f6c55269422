// Reader for EXPLAIN output pasted from the mysql/mariadb client: `\G` vertical blocks, `+----+` tables, and
// tab-separated batch output, turned into traditional rows (the same objects mysql2 would return).
//
// Design note: the vertical form is a sequence of `*** N. row ***` headers followed by right-aligned
// `name: value` lines; a line that is not `name: value` continues the previous value (multi-line JSON or TREE
// text printed with \G). The boxed form is read by column positions taken from the `+---+` border, so values
// containing spaces or `|` never shift columns. `NULL` cells become null. All cells stay strings; the row
// parser converts numbers. Positions in errors are 1-based lines of the pasted text.

import type { PlanParseError } from './plan.js';
import type { TraditionalRow } from './parse-traditional.js';

/** Result of reading pasted text: the rows, or an error with the line it happened on. */
export type PastedRowsResult = { ok: true; rows: TraditionalRow[] } | { ok: false; error: PlanParseError };

const rowHeader = /^\*+\s*\d+\.\s*row\s*\*+\s*$/;

function cell(value: string): string | null {
  return value === 'NULL' ? null : value;
}

function failure(message: string, line: number | null, column: number | null = null): PastedRowsResult {
  return { ok: false, error: { code: 'PARSE_FAILED', message, line, column } };
}

/** True when the text looks like `\G` output. */
export function isVerticalText(text: string): boolean {
  return text.split('\n').some((line) => rowHeader.test(line.trim()));
}

/** True when the text looks like a boxed `+---+` table. */
export function isBoxedText(text: string): boolean {
  return /^\s*\+[-+]+\+\s*$/m.test(text);
}

/** Read `\G` vertical output into rows. */
export function parseVerticalText(text: string): PastedRowsResult {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const rows: TraditionalRow[] = [];
  let current: TraditionalRow | null = null;
  let lastKey: string | null = null;
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!;
    const trimmed = raw.trim();
    if (rowHeader.test(trimmed)) {
      current = {};
      rows.push(current);
      lastKey = null;
      continue;
    }
    if (current === null) {
      // Text before the first row header: the client's prompt/echo of the statement, or blank lines.
      continue;
    }
    if (/^\d+ rows? in set/.test(trimmed) || /^Empty set/.test(trimmed)) {
      current = null;
      continue;
    }
    const row: TraditionalRow = current;
    const continuing: boolean = lastKey !== null && isContinuation(row[lastKey]);
    const match: RegExpExecArray | null = continuing ? null : /^\s*([A-Za-z_][\w ]*?):(?: (.*)|)$/.exec(raw);
    if (match) {
      const name: string = match[1]!;
      lastKey = name;
      row[name] = cell((match[2] ?? '').trimEnd());
      continue;
    }
    if (lastKey !== null) {
      const previous = row[lastKey];
      row[lastKey] = `${String(previous ?? '')}\n${raw}`;
      continue;
    }
    if (trimmed !== '')
      return failure(`Line ${index + 1} is not a "name: value" line of a \\G row.`, index + 1, 1);
  }
  if (rows.length === 0) return failure('No "*** 1. row ***" block found in the pasted text.', null);
  return { ok: true, rows };
}

/** A value that started a multi-line document (JSON or TREE text) keeps absorbing lines. */
function isContinuation(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const start = value.trimStart();
  return start.startsWith('{') || start.startsWith('->');
}

/** Read a boxed `+----+` table (mysql client interactive output) into rows. */
export function parseBoxedText(text: string): PastedRowsResult {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const borderIndex = lines.findIndex((line) => /^\s*\+[-+]+\+\s*$/.test(line));
  if (borderIndex < 0) return failure('No "+----+" border line found in the pasted table.', null);
  const border = lines[borderIndex]!;
  const cuts: number[] = [];
  for (let i = 0; i < border.length; i++) if (border[i] === '+') cuts.push(i);
  const slice = (line: string): string[] => {
    const cells: string[] = [];
    for (let c = 0; c + 1 < cuts.length; c++) cells.push(line.slice(cuts[c]! + 1, cuts[c + 1]!).trim());
    return cells;
  };
  let header: string[] | null = null;
  const rows: TraditionalRow[] = [];
  for (let index = borderIndex + 1; index < lines.length; index++) {
    const line = lines[index]!;
    const trimmed = line.trim();
    if (trimmed === '' || /^\+[-+]+\+$/.test(trimmed)) continue;
    if (/^\d+ rows? in set/.test(trimmed)) break;
    if (!trimmed.startsWith('|'))
      return failure(`Line ${index + 1} is not a table row (expected "| … |").`, index + 1, 1);
    if (line.length < border.length && line.trimEnd().length !== border.trimEnd().length) {
      return failure(
        `Line ${index + 1} does not line up with the "+----+" border above it.`,
        index + 1,
        line.length + 1,
      );
    }
    const cells = slice(line);
    if (header === null) {
      header = cells;
      continue;
    }
    const row: TraditionalRow = {};
    header.forEach((name, column) => {
      row[name] = cell(cells[column] ?? '');
    });
    rows.push(row);
  }
  if (header === null || rows.length === 0) return failure('The pasted table has no data rows.', null);
  return { ok: true, rows };
}

/** Read tab-separated batch output (`mysql -e "EXPLAIN …"` without a terminal) into rows. */
export function parseTabSeparatedText(text: string): PastedRowsResult {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .filter((line) => line.trim() !== '');
  const header = lines[0]?.split('\t');
  if (!header || header.length < 2) return failure('No tab-separated header line found.', 1);
  const rows = lines.slice(1).map((line) => {
    const cells = line.split('\t');
    const row: TraditionalRow = {};
    header.forEach((name, column) => {
      row[name] = cell(cells[column] ?? '');
    });
    return row;
  });
  if (rows.length === 0) return failure('The tab-separated output has no data rows.', 2);
  return { ok: true, rows };
}
