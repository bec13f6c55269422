import { describe, expect, it } from 'vitest';
import { splitStatements } from '../../../src/core/sql/split.js';

describe('splitStatements', () => {
  it('splits on semicolons outside quotes and comments, with positions', () => {
    const text =
      'SELECT \';\' AS a;\n  -- c;\nSELECT `x;y` FROM t /* ; */ WHERE b = "q;";\n\nUPDATE t SET a = 1';
    expect(
      splitStatements(text).map(({ sql, line, column, offset }) => ({ sql, line, column, offset })),
    ).toEqual([
      { sql: "SELECT ';' AS a", line: 1, column: 1, offset: 0 },
      { sql: '-- c;\nSELECT `x;y` FROM t /* ; */ WHERE b = "q;"', line: 2, column: 3, offset: 19 },
      { sql: 'UPDATE t SET a = 1', line: 5, column: 1, offset: 70 },
    ]);
  });

  it('honours DELIMITER and escaped quotes', () => {
    const text =
      "DELIMITER //\nCREATE PROCEDURE p() BEGIN SELECT 1; SELECT 'it''s \\' ;'; END//\nDELIMITER ;\nSELECT 2;";
    expect(splitStatements(text).map((slice) => slice.sql)).toEqual([
      "CREATE PROCEDURE p() BEGIN SELECT 1; SELECT 'it''s \\' ;'; END",
      'SELECT 2',
    ]);
  });

  it('drops empty statements and comment-only tails', () => {
    expect(splitStatements(';;  ;\n-- only a comment\n')).toEqual([]);
  });
});
