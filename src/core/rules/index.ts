// The rule registry, keys sorted by ID. Every rule has a fixture in tests/fixtures/rules and a docs page.
import type { Rule } from './engine.js';
import { rule as ARI001 } from './ARI001-arithmetic-on-column.js';
import { rule as CNV001 } from './CNV001-implicit-conversion.js';
import { rule as CNV002 } from './CNV002-join-column-conversion.js';
import { rule as CNV003 } from './CNV003-string-compared-with-temporal.js';
import { rule as COR001 } from './COR001-not-in-nullable-subquery.js';
import { rule as COR002 } from './COR002-outer-join-made-inner.js';
import { rule as COR003 } from './COR003-unquoted-date.js';
import { rule as COR004 } from './COR004-count-nullable-column.js';
import { rule as COR005 } from './COR005-group-by-implicit-order.js';
import { rule as COR006 } from './COR006-compared-with-null.js';
import { rule as DML001 } from './DML001-write-without-where.js';
import { rule as DML002 } from './DML002-limit-without-order.js';
import { rule as DML003 } from './DML003-insert-without-columns.js';
import { rule as FUN001 } from './FUN001-function-wrapped-column.js';
import { rule as IDX001 } from './IDX001-unindexed-predicate.js';
import { rule as LCK001 } from './LCK001-locking-read-waits.js';
import { rule as LIK001 } from './LIK001-leading-wildcard.js';
import { rule as MOD001 } from './MOD001-missing-not-null-value.js';
import { rule as MOD002 } from './MOD002-zero-date-default.js';
import { rule as MOD003 } from './MOD003-invalid-date-value.js';
import { rule as MOD004 } from './MOD004-only-full-group-by.js';
import { rule as MOD005 } from './MOD005-value-does-not-fit.js';
import { rule as MOD006 } from './MOD006-division-by-zero.js';
import { rule as MOD007 } from './MOD007-set-sql-mode.js';
import { rule as MOD008 } from './MOD008-mode-dependent-syntax.js';
import { rule as MOD009 } from './MOD009-engine-substitution.js';
import { rule as MOD010 } from './MOD010-ignore-modifier.js';
import { rule as MOD011 } from './MOD011-group-by-order.js';
import { rule as PRS001 } from './PRS001-not-fully-analysed.js';
import { rule as QRY001 } from './QRY001-select-star.js';
import { rule as QRY002 } from './QRY002-order-by-rand.js';
import { rule as QRY003 } from './QRY003-large-offset.js';
import { rule as QRY004 } from './QRY004-found-rows.js';
import { rule as QRY005 } from './QRY005-having-row-filter.js';
import { rule as QRY006 } from './QRY006-negated-condition.js';
import { rule as QRY007 } from './QRY007-or-across-columns.js';

export const rules: Readonly<Record<string, Rule>> = {
  ARI001,
  CNV001,
  CNV002,
  CNV003,
  COR001,
  COR002,
  COR003,
  COR004,
  COR005,
  COR006,
  DML001,
  DML002,
  DML003,
  FUN001,
  IDX001,
  LCK001,
  LIK001,
  MOD001,
  MOD002,
  MOD003,
  MOD004,
  MOD005,
  MOD006,
  MOD007,
  MOD008,
  MOD009,
  MOD010,
  MOD011,
  PRS001,
  QRY001,
  QRY002,
  QRY003,
  QRY004,
  QRY005,
  QRY006,
  QRY007,
};

/** The rules that run only when named (meta.optIn), for the CLI's --enable and the UI's switches. */
export const optInRules: readonly { id: string; title: string }[] = Object.values(rules)
  .filter((rule) => rule.meta.optIn && !rule.meta.replacedBy)
  .map((rule) => ({ id: rule.meta.id, title: rule.meta.title }));

export type { Rule, RuleMeta, RuleContext } from './engine.js';
export { defineRule } from './engine.js';
