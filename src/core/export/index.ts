// Public surface of the export module: plan accepted suggestions, render scripts.
export {
  parseAlterTable,
  splitTopLevel,
  keyPartsText,
  canonicalExpression,
  type AlterClause,
  type KeyPart,
  type ParsedAlter,
} from './alter-clauses.js';
export { onlineModeFor, onlineClause, rollbackMode, shapeOf, type OnlineMode } from './online-ddl.js';
export {
  planExport,
  expressionColumns,
  type ExportItem,
  type ExportPlan,
  type PlannedColumn,
  type PlannedIndex,
  type PlanContext,
  type SkippedItem,
  type TablePlan,
} from './plan.js';
export {
  renderScript,
  environmentWarnings,
  exportVariants,
  type ExportVariant,
  type RenderOptions,
  type RenderedScript,
  type RenderedStatement,
  type TableStats,
} from './render.js';
export { droppedIndex, dropRefusal, type ForeignKeyRef, type PlannedDrop } from './drops.js';
export { exportWorkspace, type WorkspaceExportOptions } from './workspace-export.js';
