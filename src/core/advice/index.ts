// The advice module: suggestions (rewrites, indexes, generated columns) for findings.
export { adviseWrapped, type Advice, type WrappedAdviceInput, type ServedBy } from './advise.js';
export { plainIndexAdvice } from './plain-index.js';
export { suffixSearchAdvice } from './suffix-search.js';
export {
  checkFunctionalKeyParts,
  type IndexSpec,
  NONDETERMINISTIC_FUNCTIONS,
  LOW_CARDINALITY,
} from './index-ddl.js';
export { likePrefixPattern } from './literals.js';
export {
  applySelectivity,
  isLowSelectivity,
  selectivityRequests,
  type SelectivityRequest,
  type TableSample,
} from './selectivity.js';
export {
  applyCastChecks,
  castCheckRequests,
  castInvalidPredicate,
  EXAMPLE_CHARS,
  isTemporalTarget,
  type CastSample,
} from './cast-check.js';
export { evaluationCheckQueries } from './evaluation-risk.js';
