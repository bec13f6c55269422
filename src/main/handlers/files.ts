// Handlers for the files area (see src/shared/api/files.ts): grants for files chosen in main's dialog.

import type { FilesApi } from '../../shared/api/files.js';
import { AdvisorError } from '../../shared/errors.js';
import type { Services } from '../services/index.js';
import { FileGrants } from '../services/file-grants.js';

export function createFilesHandlers(services: Services): FilesApi {
  return {
    async 'files.choose'(request) {
      if (!services.chooseFiles)
        throw new AdvisorError(
          'UNSUPPORTED',
          'No file dialog in web mode: use the "Choose file…" button, which uploads the file you pick to the local bridge.',
        );
      services.files ??= new FileGrants();
      const files = services.files;
      const paths = await services.chooseFiles(request);
      const access = request.purpose === 'workspace-save' ? 'write' : 'read';
      return { files: paths.map((file) => ({ ref: files.grant(file, access), name: file })) };
    },
  };
}
