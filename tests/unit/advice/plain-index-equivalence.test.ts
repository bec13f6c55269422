// A plain index proposed for a rewrite that is not equivalent carries that rewrite's query: the fix
// (index and query) is then not equivalent either (`iu * -3 <= 0` on an UNSIGNED column raises ERROR
// 1690 for iu > 0 in the original; the rewrite `iu >= 0` returns rows).
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../src/core/analyze.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';

const schema = schemaFromDdl('CREATE TABLE t (id INT PRIMARY KEY, iu INT UNSIGNED, i INT)', 'mysql').schema;

function suggestions(sql: string) {
  const report = analyze(sql, { server: offlineServerInfo('mysql', '8.0.33'), source: 'flags', schema });
  return report.statements.flatMap((statement) =>
    statement.findings.flatMap((finding) => finding.suggestions),
  );
}

describe('plain index for a rewrite', () => {
  it('is not equivalent when it serves a rewrite that is not', () => {
    const all = suggestions('SELECT id FROM t WHERE iu * -3 <= 0');
    const rewrite = all.find((suggestion) => suggestion.kind === 'rewrite');
    expect(rewrite?.equivalent).toBe(false);
    const index = all.find((suggestion) => suggestion.kind === 'index');
    expect(index?.rewrittenSql).toBe(rewrite?.rewrittenSql);
    expect(index?.equivalent).toBe(false);
    expect(index?.notes.join(' ')).toMatch(/Not equivalent/);
  });

  it('stays equivalent next to an exact rewrite (it serves the rewrite, named by servedSql)', () => {
    const all = suggestions('SELECT id FROM t WHERE i * 2 > 10');
    expect(all.find((suggestion) => suggestion.kind === 'rewrite')?.equivalent).toBe(true);
    const index = all.find((suggestion) => suggestion.kind === 'index');
    expect(index?.equivalent).toBe(true);
    expect(index?.rewrittenSql).toBeUndefined();
  });
});
