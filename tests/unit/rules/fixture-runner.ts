// Loads tests/fixtures/rules/<ID>.yml and turns each case into an analysis whose findings are compared with `expect`.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { analyze } from '../../../src/core/analyze.js';
import type { Flavor } from '../../../src/core/flavors/capabilities.js';
import type { Finding } from '../../../src/core/model/report.js';
import { offlineServerInfo } from '../../../src/core/sqlmode/modes.js';
import { schemaFromDdl } from '../../../src/core/schema/ddl.js';
import { rules } from '../../../src/core/rules/index.js';

export const FIXTURE_DIR = path.resolve(import.meta.dirname, '../../fixtures/rules');

/** One case of a fixture file. */
export interface FixtureCase {
  name: string;
  sql: string;
  schema?: string;
  server?: { flavor: Flavor; version: string };
  expect?: ExpectedFinding[];
}

/** What a `fail_*` case expects of each finding of the rule, in source order. */
export interface ExpectedFinding {
  messageId?: string;
  message?: string;
  line?: number;
  column?: number;
  severity?: string;
  /** Suggestions in order; each is matched partially (only the fields given). */
  suggestions?: Record<string, unknown>[];
  notes?: string[];
}

export interface FixtureFile {
  rule: string;
  file: string;
  /** Default schema DDL for every case (and for the rule's doc examples). */
  schema?: string;
  cases: FixtureCase[];
}

const FILE_KEYS = new Set(['rule', 'schema']);

/** Read and validate one fixture file (duplicate case names are a YAML error; `fail_*` needs `expect`). */
export function loadFixture(file: string): FixtureFile {
  const data = parse(fs.readFileSync(file, 'utf8'), { uniqueKeys: true }) as Record<string, unknown>;
  const rule = String(data.rule ?? '');
  if (!rule) throw new Error(`${file}: missing 'rule'`);
  const cases: FixtureCase[] = [];
  for (const [name, value] of Object.entries(data)) {
    if (FILE_KEYS.has(name)) continue;
    if (!/^(pass|fail)_[a-z0-9_]+$/.test(name))
      throw new Error(`${file}: case '${name}' must be named pass_* or fail_*`);
    const entry = value as Partial<FixtureCase>;
    if (typeof entry.sql !== 'string') throw new Error(`${file}: case '${name}' has no sql`);
    if (name.startsWith('fail_') && (!Array.isArray(entry.expect) || entry.expect.length === 0))
      throw new Error(`${file}: case '${name}' is a fail_* case without expect`);
    if (name.startsWith('pass_') && entry.expect)
      throw new Error(`${file}: case '${name}' is a pass_* case with expect`);
    cases.push({ ...entry, name, sql: entry.sql });
  }
  return { rule, file, schema: typeof data.schema === 'string' ? data.schema : undefined, cases };
}

/** Every fixture file in the fixture directory. */
export function loadAllFixtures(): FixtureFile[] {
  return fs
    .readdirSync(FIXTURE_DIR)
    .filter((name) => name.endsWith('.yml'))
    .sort()
    .map((name) => loadFixture(path.join(FIXTURE_DIR, name)));
}

/** Run one rule over `sql` and return its findings. */
export function runRule(
  ruleId: string,
  sql: string,
  options: { schema?: string; server?: { flavor: Flavor; version: string } } = {},
): { findings: Finding[]; errors: unknown[] } {
  const rule = rules[ruleId];
  if (!rule) throw new Error(`Unknown rule ${ruleId}`);
  const server = options.server ?? { flavor: 'mysql', version: '8.0.33' };
  const schema = options.schema ? schemaFromDdl(options.schema, server.flavor).schema : undefined;
  const report = analyze(sql, {
    server: offlineServerInfo(server.flavor, String(server.version)),
    source: 'flags',
    schema,
    rules: [rule],
  });
  return { findings: report.statements.flatMap((statement) => statement.findings), errors: report.errors };
}

/** A regular expression matching messages produced from a template with `{{placeholders}}`. */
export function messagePattern(template: string): RegExp {
  const parts = template
    .split(/\{\{\s*\w+\s*\}\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.+?')}$`, 's');
}
