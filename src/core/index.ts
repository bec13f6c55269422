// Public surface of the pure core.
export * from './flavors/index.js';
export * from './model/index.js';
export { offlineServerInfo } from './sqlmode/modes.js';
export { analyze, disabledByComment, type AnalyzeOptions } from './analyze.js';
export { schemaFromDdl, type DdlProblem } from './schema/ddl.js';
export { splitStatements, LineIndex, type StatementSlice } from './sql/split.js';
export { rules } from './rules/index.js';
