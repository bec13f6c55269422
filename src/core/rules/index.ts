// The rule registry, keys sorted by ID. Every rule has a fixture in tests/fixtures/rules and a docs page.
import type { Rule } from './engine.js';
import { rule as ARI001 } from './ARI001-arithmetic-on-column.js';
import { rule as CNV001 } from './CNV001-implicit-conversion.js';
import { rule as FUN001 } from './FUN001-function-wrapped-column.js';
import { rule as LIK001 } from './LIK001-leading-wildcard.js';

export const rules: Readonly<Record<string, Rule>> = {
  ARI001,
  CNV001,
  FUN001,
  LIK001,
};

export type { Rule, RuleMeta, RuleContext } from './engine.js';
export { defineRule } from './engine.js';
