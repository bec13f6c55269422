// Public surface of the EXPLAIN plan model: parse any EXPLAIN output, summarize, compare.
export {
  addFlags,
  assignIds,
  makeNode,
  planFlags,
  tableNodes,
  walkPlan,
  type AccessType,
  type Flag,
  type PlanFormat,
  type PlanNode,
  type PlanParseError,
  type PlanParseResult,
  type PlanReport,
} from './plan.js';
export { parsePlan, parseJsonText, type PlanHint } from './parse-plan.js';
export { parseTraditionalRows, flagsForExtra, type TraditionalRow } from './parse-traditional.js';
export { parseJsonPlan, countJsonTables, detectJsonFlavor, isAnalyzeJson } from './parse-json.js';
export { parseTreeText } from './parse-tree.js';
export { parseVerticalText, parseBoxedText, parseTabSeparatedText } from './parse-pasted.js';
export {
  accessRank,
  comparePlans,
  describeChange,
  planVerdict,
  summarizePlan,
  worstTable,
  type CompareOptions,
  type PlanComparison,
  type PlanSummary,
  type PlanVerdict,
} from './summarize.js';
