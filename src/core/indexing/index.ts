// Index design: per query (access path) and, later, per workload.
export {
  descendingKeyParts,
  designFor,
  designQueryIndexes,
  partsSql,
  whatIfDdl,
  type DesignedPart,
  type DesignOptions,
  type OrRewrite,
  type PartRole,
  type QueryIndexPlan,
  type TableIndexPlan,
} from './design.js';
export { keyPartBytes, maxBytesPerChar, MAX_KEY_BYTES, MAX_KEY_PARTS } from './key-length.js';
export {
  designWorkloadIndexes,
  workloadFromText,
  type WorkloadIndex,
  type WorkloadOptions,
  type WorkloadPlan,
  type WorkloadQuery,
  type WorkloadStatement,
  type WorkloadTable,
  type WorkloadVerification,
} from './workload.js';
export { dropSteps, redundantIndexes, safeStepNote, type RedundantIndex } from './hygiene.js';
