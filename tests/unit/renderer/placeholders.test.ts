import { describe, expect, it } from 'vitest';
import { fillPlaceholders, placeholderOffsets } from '../../../src/renderer/placeholders.js';

describe('placeholders', () => {
  it('finds ? outside strings, identifiers and comments', () => {
    const sql = 'SELECT `a?` FROM t WHERE x = ? AND y = \'?\' /* ? */ AND z IN (?, ?) -- ?\nAND w = "?"';
    const offsets = placeholderOffsets(sql);
    expect(offsets.map((offset) => sql[offset])).toEqual(['?', '?', '?']);
    expect(fillPlaceholders(sql, offsets, ['1', "'a'", '3'])).toBe(
      "SELECT `a?` FROM t WHERE x = 1 AND y = '?' /* ? */ AND z IN ('a', 3) -- ?\nAND w = \"?\"",
    );
  });

  it('handles escaped quotes and an unterminated string without looping', () => {
    expect(placeholderOffsets("SELECT 'it\\'s ?' , ?")).toEqual([19]);
    expect(placeholderOffsets("SELECT 'open ?")).toEqual([]);
  });
});
