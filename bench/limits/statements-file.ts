// A large file of statements for the streaming limit (docs/parsing.md, "Limits"), written piece by piece so
// the generator itself needs little memory: a table, then repeated blocks like a mysqldump data section
// with a workload mixed in — an extended INSERT of ~256 KB (mysqldump's lines are up to 1 MB), queries with
// findings, comments, and a DELIMITER block with a procedure.
import { closeSync, openSync, writeSync } from 'node:fs';

export function writeStatementsFile(
  file: string,
  bytes: number,
  options: { insertBytes?: number; commentBytes?: number } = {},
): number {
  const insertBytes = options.insertBytes ?? 256 * 1024;
  const commentBytes = options.commentBytes ?? 0;
  const fd = openSync(file, 'w');
  let written = 0;
  const write = (text: string) => {
    written += Buffer.byteLength(text);
    writeSync(fd, text);
  };
  try {
    write(
      '-- generated statements file\n/*!40101 SET NAMES utf8mb4 */;\nCREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, status VARCHAR(20), note VARCHAR(200), created DATETIME, KEY (customer_id), KEY (created));\n',
    );
    for (let block = 0; written < bytes; block++) {
      const rows: string[] = [];
      for (let size = 0, i = 0; size < insertBytes; i++) {
        const row = `(${block * 10_000 + i},${i % 977},'s${i % 7}','it''s; row ${i} é',  '2024-01-${String(1 + (i % 28)).padStart(2, '0')} 10:00:00')`;
        rows.push(row);
        size += row.length + 1;
      }
      write(`INSERT INTO orders VALUES ${rows.join(',')};\n`);
      // A long comment between statements (a dump's notes, commented-out data): read, never analysed.
      if (commentBytes > 0) write(`/* ${"commented out; 'x' ".repeat(commentBytes / 22)} */;\n`);
      write(
        [
          `SELECT id, status FROM orders WHERE MONTH(created) = ${1 + (block % 12)};`,
          `/* block ${block}; */ SELECT COUNT(*) FROM orders WHERE customer_id + 1 = ${block} # trailing;`,
          `UPDATE orders SET status = 'done' WHERE LOWER(status) = "open;";`,
          `-- a comment with ; inside`,
          `DELETE FROM orders WHERE id = ${block};`,
          `DELIMITER ;;`,
          `CREATE PROCEDURE p${block}() BEGIN SELECT 1; SELECT 2; END;;`,
          `DELIMITER ;`,
          `SELECT o.id FROM orders o JOIN orders p ON p.id = o.id WHERE DATE(o.created) = '2024-01-01';`,
          '',
        ].join('\n'),
      );
    }
  } finally {
    closeSync(fd);
  }
  return written;
}
