// Rule message IDs are typed: `defineRule` infers them from `meta.messages`, and `report()` refuses any other.
// The compile-time half is checked by `npm run typecheck` (tests are in tsconfig.json): each
// `@ts-expect-error` below fails the typecheck if the line it guards starts compiling.
import { describe, expect, it } from 'vitest';
import { defineRule, toFinding, type ReportInput, type RuleContext } from '../../../src/core/rules/engine.js';
import { reportWrappedSites, expressionServedByIndex } from '../../../src/core/rules/utils/wrapped-site.js';

const meta = {
  id: 'TST001',
  name: 'test.typed-messages',
  category: 'arithmetic-on-column',
  severity: 'warning',
  title: 'Typed messages probe',
  rationale: 'A probe for the message typing.',
  appliesTo: ['select'],
  docs: { antiPattern: 'SELECT 1', bestPractice: 'SELECT 1' },
} as const;

const where = { span: { start: 0, end: 1 }, table: null, columns: [], expression: 'x' };

const probe = defineRule({
  meta: { ...meta, messages: { known: 'Known {{what}}.' } },
  detect(context) {
    context.report({ messageId: 'known', data: { what: 'id' }, ...where });
    // @ts-expect-error 'unknown' is not among this rule's messages
    context.report({ messageId: 'unknown', ...where });
  },
});

// A rule that hands its context to the wrapped-site helper must declare the helper's three messages.
defineRule({
  meta: { ...meta, messages: { wrapped: 'w', wrappedOrder: 'o' } },
  detect(context) {
    // @ts-expect-error 'servedOnlyByName' is missing from this rule's messages
    reportWrappedSites(context, { kinds: ['function'], servedBy: expressionServedByIndex });
  },
});

describe('typed rule messages', () => {
  it('reports only declared message IDs', () => {
    const reported: ReportInput[] = [];
    const context = {
      report: (input: ReportInput) => reported.push(input),
    } as unknown as RuleContext<'known'>;
    probe.detect(context);
    expect(reported.map((input) => input.messageId)).toEqual(['known', 'unknown']);
    expect(toFinding(probe.meta, reported[0]!).message).toBe('Known id.');
    // Outside TypeScript's reach (plain JS callers) the engine still refuses an undeclared ID at run time.
    expect(() => toFinding(probe.meta, reported[1]!)).toThrow("Rule TST001 has no message 'unknown'");
  });
});
