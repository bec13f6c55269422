// The server view (modes, defaults, lax-mode risks, variable differences) and the upgrade view ("what breaks under X").

import { statementAnalyzer } from '../analyze.js';
import { splitStatements, type StatementSlice } from '../sql/split.js';
import type { Flavor } from '../flavors/capabilities.js';
import type { PredictedError } from '../model/report.js';
import type { SchemaModel } from '../model/schema.js';
import type { ServerInfo } from '../model/server-info.js';
import { rules as registry } from '../rules/index.js';
import { VARIABLE_DEFAULTS, type ModeEffect } from './data.js';
import {
  defaultSqlModeEntry,
  expandSqlMode,
  inRange,
  modeFamily,
  modeInfo,
  offlineServerInfo,
  sqlModeSet,
} from './modes.js';

/** One mode as the server view lists it. */
export interface ModeLine {
  name: string;
  meaning: string;
  effect: ModeEffect | 'unknown';
  /** Part of this version's compiled default. */
  isDefault: boolean;
}

/** One scope (GLOBAL or SESSION) of sql_mode. */
export interface ModeScope {
  raw: string;
  modes: ModeLine[];
  strict: boolean;
  differsFromDefault: { added: string[]; removed: string[] };
  /** Lax settings: what the server will silently accept. */
  risks: string[];
}

/** One variable compared with this version's default. */
export interface VariableLine {
  name: string;
  value: string | null;
  default: string;
  differsFromDefault: boolean;
  /** The same variable's default on the other family (MySQL ↔ MariaDB), when it differs. */
  otherFamilyDefault: string | null;
  impact: string;
  restartRequired: boolean;
  source: string;
}

/** The "Modes" panel / `sargable sqlmode` output. */
export interface SqlModeView {
  flavor: Flavor;
  version: string;
  defaultLabel: string;
  defaultSqlMode: string;
  defaultSource: string;
  global: ModeScope;
  session: ModeScope;
  variables: VariableLine[];
}

/** Input of {@link buildSqlModeView}: what a live server (or a variables dump) reports. */
export interface SqlModeViewInput {
  flavor: Flavor;
  version: string;
  globalSqlMode: string;
  sessionSqlMode: string;
  /** Lower-case variable name → value (`SHOW GLOBAL VARIABLES`). Missing ones are listed as null. */
  variables: Readonly<Record<string, string>>;
}

function scope(raw: string, flavor: Flavor, defaults: readonly string[]): ModeScope {
  const names = expandSqlMode(raw, flavor);
  const set = sqlModeSet(raw, flavor);
  const expandedDefaults = expandSqlMode(defaults, flavor);
  const risks: string[] = [];
  if (!set.strict)
    risks.push(
      'Strict mode is off: too-long strings are cut, out-of-range numbers clipped, missing NOT NULL values get implicit defaults and bad dates become 0000-00-00, all with only a warning.',
    );
  if (!set.has('NO_ZERO_DATE'))
    risks.push("NO_ZERO_DATE is off: '0000-00-00' is stored silently (it fails on MySQL 5.7.8+ defaults).");
  if (!set.has('NO_ZERO_IN_DATE'))
    risks.push("NO_ZERO_IN_DATE is off: dates such as '2017-00-16' are stored as written.");
  if (!set.has('ERROR_FOR_DIVISION_BY_ZERO'))
    risks.push('ERROR_FOR_DIVISION_BY_ZERO is off: division by zero in INSERT/UPDATE stores NULL silently.');
  if (!set.has('ONLY_FULL_GROUP_BY'))
    risks.push('ONLY_FULL_GROUP_BY is off: grouped queries may return values from arbitrary rows.');
  if (!set.has('NO_ENGINE_SUBSTITUTION'))
    risks.push('NO_ENGINE_SUBSTITUTION is off: an unavailable ENGINE silently becomes the default engine.');
  if (set.has('ALLOW_INVALID_DATES'))
    risks.push("ALLOW_INVALID_DATES is on: '2017-02-30' is stored as written.");
  return {
    raw,
    modes: names.map((name) => {
      const info = modeInfo(name);
      return {
        name,
        meaning: info?.meaning ?? 'Not a mode this advisor knows.',
        effect: info?.effect ?? 'unknown',
        isDefault: expandedDefaults.includes(name),
      };
    }),
    strict: set.strict,
    differsFromDefault: {
      added: names.filter((name) => !expandedDefaults.includes(name)),
      removed: expandedDefaults.filter((name) => !names.includes(name)),
    },
    risks,
  };
}

function normalizeValue(name: string, value: string, switches?: readonly string[]): string {
  if (!switches) return value.toUpperCase();
  return value
    .split(',')
    .filter((pair) => switches.includes(pair.split('=')[0] ?? ''))
    .join(',')
    .toUpperCase();
}

/** Build the server view from live (or dumped) values. Pure: the service reads, this compares. */
export function buildSqlModeView(input: SqlModeViewInput): SqlModeView {
  const entry = defaultSqlModeEntry(input.flavor, input.version);
  const family = modeFamily(input.flavor);
  const other = family === 'mysql' ? 'mariadb' : 'mysql';
  const variables: VariableLine[] = [];
  for (const variable of VARIABLE_DEFAULTS) {
    const row = variable.values.find((v) => v.family === family && inRange(input.version, v.range));
    if (!row) continue;
    const otherRow = variable.values.find((v) => v.family === other && v.range.to === undefined);
    const raw = input.variables[variable.name] ?? input.variables[variable.name.toUpperCase()];
    const value = raw === undefined ? null : normalizeValue(variable.name, raw, variable.switches);
    variables.push({
      name: variable.name,
      value,
      default: row.value,
      differsFromDefault: value !== null && value !== row.value.toUpperCase(),
      otherFamilyDefault: otherRow && otherRow.value !== row.value ? otherRow.value : null,
      impact: variable.impact,
      restartRequired: Boolean(variable.restartRequired),
      source: row.source,
    });
  }
  return {
    flavor: input.flavor,
    version: input.version,
    defaultLabel: entry.label,
    defaultSqlMode: entry.modes.join(','),
    defaultSource: entry.source,
    global: scope(input.globalSqlMode, input.flavor, entry.modes),
    session: scope(input.sessionSqlMode, input.flavor, entry.modes),
    variables,
  };
}

/** A target of the upgrade view: a flavor/version with its default sql_mode, or an explicit mode. */
export interface UpgradeTarget {
  flavor: Flavor;
  version: string;
  /** Defaults to the target version's compiled default. */
  sqlMode?: string;
}

/** One statement that breaks or changes behaviour on the target. */
export interface UpgradeItem {
  index: number;
  sql: string;
  rule: string;
  message: string;
  predictedError: PredictedError | null;
  /** `error`: the statement fails; `changes`: it runs but stores or returns something else. */
  outcome: 'error' | 'changes';
}

/** "What breaks if this workload runs under sql_mode X or on server Y". */
export interface UpgradeReport {
  target: { flavor: Flavor; version: string; sqlMode: string };
  statements: number;
  failing: number;
  changing: number;
  byCode: Record<string, number>;
  items: UpgradeItem[];
  parseErrors: number;
  /** What could not be checked (tables the schema does not know), once each. */
  notes: string[];
}

/** Run the sql-mode rules over statements for a target server/mode and count what would fail or change. */
export function whatBreaks(sql: string, target: UpgradeTarget, schema?: SchemaModel): UpgradeReport {
  const upgrade = upgradeAnalyzer(target, schema);
  splitStatements(sql).forEach((slice, index) => upgrade.add(slice, index));
  return upgrade.result();
}

/**
 * {@link whatBreaks} one statement at a time, in order (for an input read as a stream: the CLI's
 * `sqlmode FILE`): each statement is analysed as it comes and only what the report lists is kept (the
 * items, with their statement's text, and the counts). Same report as whatBreaks on the whole text.
 */
export function upgradeAnalyzer(
  target: UpgradeTarget,
  schema?: SchemaModel,
): { add(slice: StatementSlice, index: number): void; result(): UpgradeReport } {
  const base: ServerInfo = offlineServerInfo(target.flavor, target.version);
  const sqlMode = target.sqlMode ?? defaultSqlModeEntry(target.flavor, target.version).modes.join(',');
  const server: ServerInfo = { ...base, sqlMode: { session: sqlMode, global: sqlMode } };
  const modeRules = Object.values(registry).filter((rule) => rule.meta.category === 'sql-mode');
  const analyzeSlice = statementAnalyzer({ server, source: 'flags', schema, rules: modeRules });
  const items: UpgradeItem[] = [];
  const notes = new Set<string>();
  let statements = 0;
  let parseErrors = 0;
  return {
    add(slice, index) {
      statements++;
      const outcome = analyzeSlice(slice, index);
      if ('error' in outcome) {
        parseErrors++;
        return;
      }
      const statement = outcome.statement;
      for (const note of statement.notes ?? []) notes.add(note);
      for (const finding of statement.findings) {
        if (finding.severity === 'info' && !finding.predictedError) continue;
        const error = finding.predictedError && !finding.predictedError.warningOnly;
        items.push({
          index: statement.index,
          sql: statement.sql,
          rule: finding.rule,
          message: finding.message,
          predictedError: finding.predictedError ?? null,
          outcome: error ? 'error' : 'changes',
        });
      }
    },
    result() {
      const failingStatements = new Set(items.filter((i) => i.outcome === 'error').map((i) => i.index));
      const changing = new Set(items.filter((i) => !failingStatements.has(i.index)).map((i) => i.index));
      const byCode: Record<string, number> = {};
      for (const item of items)
        if (item.predictedError)
          byCode[item.predictedError.code] = (byCode[item.predictedError.code] ?? 0) + 1;
      return {
        target: { flavor: target.flavor, version: target.version, sqlMode },
        statements,
        failing: failingStatements.size,
        changing: changing.size,
        byCode,
        items,
        parseErrors,
        notes: [...notes],
      };
    },
  };
}

/** One captured statement class: a slow-log class or a performance_schema digest, with its example. */
export interface CapturedClass {
  /** The class's example (slow log) or sample text / digest text (performance_schema). */
  sql: string;
  /** pt-query-digest fingerprint (or the digest text) that names the class. */
  fingerprint: string;
  /** Executions of the class in the capture. */
  count: number;
}

/** One class that breaks or changes behaviour on the target. */
export interface UpgradeClassItem extends Omit<UpgradeItem, 'index'> {
  /** Position of the class in the request. */
  classIndex: number;
  fingerprint: string;
  count: number;
}

/** Classes and the executions they stand for. */
export interface ClassCount {
  classes: number;
  events: number;
}

/** The upgrade view over captured classes: every count in classes and in executions. */
export interface UpgradeClassesReport {
  target: { flavor: Flavor; version: string; sqlMode: string };
  total: ClassCount;
  failing: ClassCount;
  changing: ClassCount;
  /** Error (or warning) code → classes and executions that would raise it. */
  byCode: Record<string, ClassCount>;
  items: UpgradeClassItem[];
  /** Classes whose example does not parse (e.g. a truncated sample text). */
  parseErrors: ClassCount;
  /** What could not be checked (tables the schema does not know), once each. */
  notes: string[];
}

/**
 * {@link whatBreaks} over captured classes: each class's example is analyzed on its own (a class is one
 * statement; nothing carries over between classes), and every count is given in classes and in
 * executions, so a rare statement and one run a million times are told apart.
 */
export function whatBreaksForClasses(
  classes: readonly CapturedClass[],
  target: UpgradeTarget,
  schema?: SchemaModel,
): UpgradeClassesReport {
  const count = (): ClassCount => ({ classes: 0, events: 0 });
  const add = (into: ClassCount, entry: CapturedClass): void => {
    into.classes += 1;
    into.events += entry.count;
  };
  const report: UpgradeClassesReport = {
    target: { flavor: target.flavor, version: target.version, sqlMode: '' },
    total: count(),
    failing: count(),
    changing: count(),
    byCode: {},
    items: [],
    parseErrors: count(),
    notes: [],
  };
  classes.forEach((entry, classIndex) => {
    const single = whatBreaks(entry.sql.replace(/;\s*$/, ''), target, schema);
    report.target = single.target;
    for (const note of single.notes) if (!report.notes.includes(note)) report.notes.push(note);
    add(report.total, entry);
    if (single.parseErrors > 0) add(report.parseErrors, entry);
    if (single.failing > 0) add(report.failing, entry);
    else if (single.changing > 0) add(report.changing, entry);
    const codes = new Set(
      single.items.flatMap((item) => (item.predictedError ? [String(item.predictedError.code)] : [])),
    );
    for (const code of codes) add((report.byCode[code] ??= count()), entry);
    for (const { index: _index, ...item } of single.items)
      report.items.push({ ...item, classIndex, fingerprint: entry.fingerprint, count: entry.count });
  });
  if (classes.length === 0)
    report.target.sqlMode =
      target.sqlMode ?? defaultSqlModeEntry(target.flavor, target.version).modes.join(',');
  report.items.sort(
    (a, b) =>
      Number(b.outcome === 'error') - Number(a.outcome === 'error') ||
      b.count - a.count ||
      a.classIndex - b.classIndex,
  );
  return report;
}
