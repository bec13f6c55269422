// One call from a workspace to a script: accepted items → plan → rendered text.

import type { SchemaModel } from '../model/schema.js';
import { acceptedItems, type Workspace } from '../workspace/model.js';
import type { ForeignKeyRef } from './drops.js';
import { planExport, type ExportItem, type ExportPlan } from './plan.js';
import { renderScript, type RenderOptions, type RenderedScript } from './render.js';

/** Options: rendering options plus the current schema (null when unknown). */
export interface WorkspaceExportOptions extends RenderOptions {
  schema: SchemaModel | null;
  /** The database's FOREIGN KEYs (live); without them no index drop is exported. */
  foreignKeys?: readonly ForeignKeyRef[] | null;
}

/** Plan and render the accepted suggestions of a workspace. */
export function exportWorkspace(
  workspace: Workspace,
  options: WorkspaceExportOptions,
): { plan: ExportPlan; script: RenderedScript } {
  const items: ExportItem[] = acceptedItems(workspace)
    .filter((item) => item.suggestion.ddl.length > 0)
    .map((item) => ({
      id: item.id,
      table: item.table,
      kind: item.suggestion.kind,
      ddl: item.suggestion.ddl,
      notes: item.suggestion.notes,
      ...(item.suggestion.rewrittenSql ? { rewrittenSql: item.suggestion.rewrittenSql } : {}),
      sources: item.sources,
      ...(item.verification ? { verification: item.verification } : {}),
      ...(item.finding ? { finding: item.finding } : {}),
    }));
  const plan = planExport(items, options.flavor, options.schema, {
    foreignKeys: options.foreignKeys ?? null,
  });
  return { plan, script: renderScript(plan, options) };
}
