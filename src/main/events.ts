// The event channels' handlers (see src/shared/events.ts): job progress from the capture service's jobs.

import type { EventHandlers } from '../shared/events.js';
import { CaptureService } from './services/capture-jobs.js';

/** The event handlers over the same services as the request handlers (one CaptureService for both). */
export function createEventHandlers(services: { capture?: CaptureService }): EventHandlers {
  const capture = (services.capture ??= new CaptureService());
  return {
    'job.events': async (args, emit, signal) => capture.watchJob(args.jobId, emit, signal),
  };
}
