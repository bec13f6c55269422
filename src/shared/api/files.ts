// API area: files the user chooses. Main hands out opaque references; handlers open nothing else
// (docs/security.md, "Files").

import { z } from 'zod';

const chooseSchema = z.object({
  /** What the file is for: sets the dialog's title, filters, and open vs save. */
  purpose: z.enum(['slowlog', 'schema', 'sql', 'workspace-open', 'workspace-save']),
  /** Several files at once (slow logs). */
  multiple: z.boolean().optional(),
});

export const filesSchemas = {
  'files.choose': chooseSchema,
} as const;

/** One chosen file: `ref` goes where a request takes a path (`digest.start`'s paths, `workspace.open`). */
export interface ChosenFile {
  ref: string;
  name: string;
}

export interface FilesApi {
  /**
   * Electron: the native open/save dialog, shown by main; an empty list when the user cancels.
   * Web mode: UNSUPPORTED (the browser's file picker uploads the file to POST /upload instead).
   */
  'files.choose'(request: z.input<typeof chooseSchema>): Promise<{ files: ChosenFile[] }>;
}
