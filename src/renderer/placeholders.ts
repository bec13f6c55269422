// Finds `?` placeholders (prepared statements, performance_schema digest texts) outside quotes and comments.

/** 0-based offsets of each `?` placeholder in `sql`. */
export function placeholderOffsets(sql: string): number[] {
  const found: number[] = [];
  let index = 0;
  while (index < sql.length) {
    const char = sql[index];
    const next = sql[index + 1];
    if (char === "'" || char === '"' || char === '`') {
      index++;
      while (index < sql.length && sql[index] !== char) index += sql[index] === '\\' && char !== '`' ? 2 : 1;
      index++;
    } else if ((char === '-' && next === '-') || char === '#') {
      const end = sql.indexOf('\n', index);
      index = end === -1 ? sql.length : end + 1;
    } else if (char === '/' && next === '*') {
      const end = sql.indexOf('*/', index + 2);
      index = end === -1 ? sql.length : end + 2;
    } else {
      if (char === '?') found.push(index);
      index++;
    }
  }
  return found;
}

/** Replace each placeholder with its value (as typed: numbers bare, strings quoted by the user). */
export function fillPlaceholders(sql: string, offsets: readonly number[], values: readonly string[]): string {
  let result = sql;
  for (let index = offsets.length - 1; index >= 0; index--) {
    const offset = offsets[index] ?? 0;
    result = `${result.slice(0, offset)}${values[index] ?? ''}${result.slice(offset + 1)}`;
  }
  return result;
}
