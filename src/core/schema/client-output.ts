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
    vertical: /^\*{5,} *\d+\. row \*{5,}\s*$/m.test(sample),
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
  const { vertical, tabular, batch } = framing(
    text.length > FRAMING_SAMPLE ? text.slice(0, FRAMING_SAMPLE) : text,
  );
  if (!vertical && !tabular && !batch) return text;
  const lines = text.split('\n');
  const out: string[] = [];
  let extraColumns = 0;
  for (let index = 0; index < lines.length; index++) {
    let line = lines[index]!.replace(/\r$/, '');
    if (PROMPT.test(line) || ROWS_IN_SET.test(line)) {
      out.push(';');
      continue;
    }
    if (vertical) {
      if (ROW_LINE.test(line)) {
        out.push(';');
        continue;
      }
      if (/^\s*(?:Table|View|Sequence|character_set_client|collation_connection): /.test(line)) {
        out.push('');
        continue;
      }
      const create = /^\s*Create (?:Table|View|Sequence): /.exec(line);
      if (create) line = line.slice(create[0].length);
      out.push(line);
      continue;
    }
    if (tabular) {
      if (BORDER_LINE.test(line)) {
        out.push(';');
        continue;
      }
      const header = TABLE_HEADER.exec(line);
      if (header) {
        extraColumns = (header[1]?.match(/\|/g) ?? []).length;
        out.push('');
        continue;
      }
      const start = /^\|\s*(?:[^|]*?)\s*\|\s(?=\s*CREATE\b)/i.exec(line);
      if (start) line = line.slice(start[0].length);
      if (BORDER_LINE.test(lines[index + 1] ?? '')) {
        // The row's last line: drop the cell's closing `|` and the columns after Create Table.
        line = line.replace(/\s*\|\s*$/, '');
        for (let column = 0; column < extraColumns; column++) line = line.replace(/\s*\|[^|]*$/, '');
      }
      out.push(line);
      continue;
    }
    if (BATCH_HEADER.test(line)) {
      out.push('');
      continue;
    }
    const row = BATCH_ROW.exec(line);
    if (row) {
      out.push(`${unescapeBatch(row[1]!)};`);
      continue;
    }
    out.push(line);
  }
  out.push(';');
  return out.join('\n');
}

/** The batch-mode escapes of the mysql client: \n, \t, \\, \0. */
function unescapeBatch(text: string): string {
  return text.replace(/\\([nt0\\])/g, (_match, char: string) =>
    char === 'n' ? '\n' : char === 't' ? '\t' : char === '0' ? '\0' : '\\',
  );
}
