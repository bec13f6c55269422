// SHOW CREATE TABLE / VIEW output pasted from a client, turned back into plain DDL for the loader:
// the vertical `\G` form (`*** 1. row ***`, `Table:`, `Create Table:`), the table form (`+---+`,
// `| t | CREATE TABLE … |`) and the batch form (`t<TAB>CREATE TABLE …` with `\n` escapes).
// Line numbers are kept (framing lines become blank or `;`), so skipped statements point at the
// pasted text. Text without that framing is returned unchanged.

const ROW_LINE = /^\*{5,} *\d+\. row *\*{5,}\s*$/;
const BORDER_LINE = /^\+[-+]+\+\s*$/;
const TABLE_HEADER = /^\|\s*(?:Table|View|Sequence)\s*\|\s*Create (?:Table|View|Sequence)\s*\|(.*)$/;
const BATCH_HEADER = /^(?:Table|View|Sequence)\tCreate (?:Table|View|Sequence)(\t.*)?$/;
const BATCH_ROW = /^[^\t\n]+\t((?:CREATE|create) [^\t]*)(\t.*)?$/;
const PROMPT = /^(?:mysql|MariaDB \[[^\]]*\])> /;
const ROWS_IN_SET = /^(?:\d+ rows? in set|Empty set)\b/;

/** How much of the text's start decides whether it is client output. */
export const FRAMING_SAMPLE = 200_000;

function framing(sample: string): { vertical: boolean; tabular: boolean; batch: boolean } {
  return {
    // The `\G` form, or just its `Create Table: CREATE TABLE …` field copied without the row line.
    vertical:
      /^\*{5,} *\d+\. row \*{5,}\s*$/m.test(sample) ||
      /^\s*Create (?:Table|View|Sequence): +CREATE\b/im.test(sample),
    tabular: /^\|\s*(?:Table|View|Sequence)\s*\|\s*Create (?:Table|View|Sequence)\s*\|/m.test(sample),
    batch: /^(?:Table|View|Sequence)\tCreate (?:Table|View|Sequence)/m.test(sample),
  };
}

/** True when the text (its first FRAMING_SAMPLE characters) is client output that unwrapClientOutput changes. */
export function hasClientFraming(sample: string): boolean {
  const { vertical, tabular, batch } = framing(sample.slice(0, FRAMING_SAMPLE));
  return vertical || tabular || batch;
}

/** Plain DDL from pasted client output (or the text itself when it has no client framing). */
export function unwrapClientOutput(text: string): string {
  const sample = text.length > FRAMING_SAMPLE ? text.slice(0, FRAMING_SAMPLE) : text;
  if (!hasClientFraming(sample)) return text;
  const unwrapper = new ClientOutputUnwrapper(sample);
  return unwrapper.push(text) + unwrapper.end();
}

/**
 * Client output unwrapped as a stream, line by line (the table form looks one line ahead, for the
 * border that closes a row): what unwrapClientOutput makes of the whole text, in pieces, so pasted
 * output of any size is read with memory bounded by its longest line. `sample` (the text's first
 * FRAMING_SAMPLE characters) decides the form, as for the whole text.
 */
export class ClientOutputUnwrapper {
  private readonly vertical: boolean;
  private readonly tabular: boolean;
  /** The end of the text that is not a whole line yet. */
  private partial = '';
  /** The table form's line waiting for the next one (null: none). */
  private pending: string | null = null;
  private extraColumns = 0;

  constructor(sample: string) {
    const form = framing(sample.slice(0, FRAMING_SAMPLE));
    this.vertical = form.vertical;
    this.tabular = form.tabular;
  }

  /** The unwrapped text of the whole lines `text` completes (each ends with a newline). */
  push(text: string): string {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop()!;
    let out = '';
    for (const line of lines) out += this.line(line);
    return out;
  }

  /** The rest, after the last push: the last line and the `;` that ends the last statement. */
  end(): string {
    const rest = this.line(this.partial);
    this.partial = '';
    return `${rest}${this.pending === null ? '' : this.convert(this.pending, '')};`;
  }

  /** Text for the lines before `next` (one line, or none while the table form waits for its successor). */
  private line(next: string): string {
    if (!this.tabular) return this.convert(next, '');
    const previous = this.pending;
    this.pending = next;
    return previous === null ? '' : this.convert(previous, next);
  }

  /** One line of output, with its newline (`following`: the line after it, for the table form). */
  private convert(raw: string, following: string): string {
    let line = raw.replace(/\r$/, '');
    if (PROMPT.test(line) || ROWS_IN_SET.test(line)) return ';\n';
    if (this.vertical) {
      if (ROW_LINE.test(line)) return ';\n';
      if (/^\s*(?:Table|View|Sequence|character_set_client|collation_connection): /.test(line)) return '\n';
      const create = /^\s*Create (?:Table|View|Sequence): /.exec(line);
      if (create) line = line.slice(create[0].length);
      return `${line}\n`;
    }
    if (this.tabular) {
      if (BORDER_LINE.test(line)) return ';\n';
      const header = TABLE_HEADER.exec(line);
      if (header) {
        this.extraColumns = (header[1]?.match(/\|/g) ?? []).length;
        return '\n';
      }
      const start = /^\|\s*(?:[^|]*?)\s*\|\s(?=\s*CREATE\b)/i.exec(line);
      if (start) line = line.slice(start[0].length);
      if (BORDER_LINE.test(following)) {
        // The row's last line: drop the cell's closing `|` and the columns after Create Table.
        line = line.replace(/\s*\|\s*$/, '');
        for (let column = 0; column < this.extraColumns; column++) line = line.replace(/\s*\|[^|]*$/, '');
      }
      return `${line}\n`;
    }
    if (BATCH_HEADER.test(line)) return '\n';
    const row = BATCH_ROW.exec(line);
    if (row) return `${unescapeBatch(row[1]!)};\n`;
    return `${line}\n`;
  }
}

/** The batch-mode escapes of the mysql client: \n, \t, \\, \0. */
function unescapeBatch(text: string): string {
  return text.replace(/\\([nt0\\])/g, (_match, char: string) =>
    char === 'n' ? '\n' : char === 't' ? '\t' : char === '0' ? '\0' : '\\',
  );
}
