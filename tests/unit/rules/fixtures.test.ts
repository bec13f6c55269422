// Runs every rule fixture case (tests/fixtures/rules/<ID>.yml) as `<ID> › <case>`, plus the rules' doc examples.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStatement } from '../../../src/core/sql/parse.js';
import { rules } from '../../../src/core/rules/index.js';
import { renderRuleDocs } from '../../../scripts/gen-rule-docs.js';
import { FIXTURE_DIR, loadAllFixtures, loadFixture, messagePattern, runRule } from './fixture-runner.js';

const fixtures = loadAllFixtures();
const ROOT = path.resolve(import.meta.dirname, '../../..');

for (const fixture of fixtures) {
  describe(fixture.rule, () => {
    it.each(fixture.cases.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
      const rule = rules[fixture.rule];
      expect(rule, `rule ${fixture.rule} is registered`).toBeDefined();
      const server = entry.server ?? { flavor: 'mysql' as const, version: '8.0.33' };
      const { findings, errors } = runRule(fixture.rule, entry.sql, {
        schema: entry.schema ?? fixture.schema,
        server,
      });
      expect(errors).toEqual([]);
      // Every rewrite re-parses on the target flavor.
      for (const suggestion of findings.flatMap((finding) => finding.suggestions))
        if (suggestion.rewrittenSql)
          expect(parseStatement(suggestion.rewrittenSql, server.flavor).ok).toBe(true);
      if (entry.name.startsWith('pass_')) {
        expect(findings).toEqual([]);
        return;
      }
      const expected = entry.expect ?? [];
      const actual = findings.map((finding, index) => {
        const want = expected[index] ?? {};
        const template = want.messageId ? rule?.meta.messages[want.messageId] : undefined;
        if (want.messageId) expect(template, `message ${want.messageId} exists`).toBeDefined();
        return {
          ...(want.messageId
            ? {
                messageId:
                  template && messagePattern(template).test(finding.message)
                    ? want.messageId
                    : finding.message,
              }
            : {}),
          ...(want.message ? { message: finding.message } : {}),
          ...(want.line !== undefined ? { line: finding.line } : {}),
          ...(want.column !== undefined ? { column: finding.column } : {}),
          ...(want.severity ? { severity: finding.severity } : {}),
          ...(want.notes ? { notes: finding.notes ?? [] } : {}),
          ...(want.suggestions
            ? {
                suggestions: finding.suggestions.map((suggestion, i) =>
                  Object.fromEntries(
                    Object.keys(want.suggestions?.[i] ?? { kind: 1 }).map((key) => [
                      key,
                      // `null` in a fixture means "absent"
                      (suggestion as unknown as Record<string, unknown>)[key] ?? null,
                    ]),
                  ),
                ),
              }
            : {}),
        };
      });
      expect(actual).toEqual(expected);
    });
  });
}

describe('rule catalog completeness', () => {
  const ids = Object.keys(rules);

  it('registry keys are sorted and match rule IDs', () => {
    expect(ids).toEqual([...ids].sort());
    for (const id of ids) expect(rules[id]?.meta.id).toBe(id);
  });

  it.each(ids)('%s has a fixture with pass_ and fail_ cases', (id) => {
    const file = path.join(FIXTURE_DIR, `${id}.yml`);
    expect(fs.existsSync(file), `${file} exists`).toBe(true);
    const fixture = loadFixture(file);
    expect(fixture.rule).toBe(id);
    expect(fixture.cases.some((entry) => entry.name.startsWith('pass_'))).toBe(true);
    expect(fixture.cases.some((entry) => entry.name.startsWith('fail_'))).toBe(true);
  });

  it('docs/rules.md and docs/rules/<ID>.md are current (run npx tsx scripts/gen-rule-docs.ts)', async () => {
    const files = await renderRuleDocs();
    for (const id of ids) {
      expect(files.has(`docs/rules/${id}.md`)).toBe(true);
      expect(files.get('docs/rules.md')).toContain(`(rules/${id}.md)`);
    }
    for (const [file, content] of files) {
      const onDisk = fs.existsSync(path.join(ROOT, file))
        ? fs.readFileSync(path.join(ROOT, file), 'utf8')
        : '';
      expect(onDisk, `${file} is stale`).toBe(content);
    }
    // Renders (and runs) every rule's doc examples: ~2 s alone, 6–10 s on a loaded machine.
  }, 30_000);

  it.each(ids)('%s doc examples: the anti-pattern is flagged, the best practice is not', (id) => {
    const meta = rules[id]?.meta;
    const fixture = loadFixture(path.join(FIXTURE_DIR, `${id}.yml`));
    const anti = runRule(id, meta?.docs.antiPattern ?? '', { schema: fixture.schema });
    const best = runRule(id, meta?.docs.bestPractice ?? '', { schema: fixture.schema });
    expect(anti.findings.map((finding) => finding.rule)).toContain(id);
    expect(best.findings).toEqual([]);
  });

  it('the runner rejects duplicate cases and fail_* without expect', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sargable-fixture-'));
    try {
      const duplicate = path.join(dir, 'dup.yml');
      fs.writeFileSync(duplicate, 'rule: FUN001\npass_a:\n  sql: SELECT 1\npass_a:\n  sql: SELECT 2\n');
      expect(() => loadFixture(duplicate)).toThrow(/unique|duplicate/i);
      const missing = path.join(dir, 'missing.yml');
      fs.writeFileSync(missing, 'rule: FUN001\nfail_a:\n  sql: SELECT 1\n');
      expect(() => loadFixture(missing)).toThrow(/without expect/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
