// Handlers for the capture area (see src/shared/api/capture.ts).

import { topClassesFromDigest } from '../../core/capture/index.js';
import { captureFromDelta, captureFromDigest } from '../../core/history/index.js';
import type { CaptureApi } from '../../shared/api/capture.js';
import { AdvisorError } from '../../shared/errors.js';
import type { Services } from '../services/index.js';
import { FileGrants } from '../services/file-grants.js';
import { queryKiller } from '../services/connection.js';
import { CaptureService } from '../services/capture-jobs.js';
import { digestDelta, readDigestHistogram, takeDigestSnapshot } from '../services/capture.js';
import { CaptureWindows } from '../services/capture-windows.js';
import { digestSlowLogFiles } from '../services/slowlog-file.js';
import { readSlowLogLogging, readSlowLogTable, slowLogTableEnd } from '../services/slowlog-table.js';
import { scanSlowLogTimeline } from '../services/slowlog-timeline.js';
import { captureSlowLogWindow, previewSlowLogWindow } from '../services/slowlog-window.js';
import { assertProductionConfirmed } from '../services/production-guard.js';
import { loggedWrite } from '../services/write-log.js';
import { recordCapture, windowOwner } from '../services/history.js';

/** The capture handlers; `services.capture` keeps snapshots and jobs (one is created when absent). */
export function createCaptureHandlers(services: Services): CaptureApi {
  const { connections } = services;
  // Shared with the event channels (main/events.ts), which watch the same jobs.
  const capture = (services.capture ??= new CaptureService());
  const files = services.files ?? new FileGrants();
  const windows = new CaptureWindows();
  return {
    async 'capture.snapshot'(request) {
      const { connection, server } = connections.get(request.connectionId);
      const snapshot = await takeDigestSnapshot(
        connection,
        server,
        request.maxRows === undefined ? {} : { maxRows: request.maxRows },
      );
      return capture.addSnapshot(request.connectionId, snapshot);
    },
    async 'capture.delta'(request) {
      const { connection, server } = connections.get(request.connectionId);
      const before = capture.getSnapshot(request.connectionId, request.fromSnapshotId);
      const after = request.toSnapshotId
        ? capture.getSnapshot(request.connectionId, request.toSnapshotId)
        : await takeDigestSnapshot(
            connection,
            server,
            request.maxRows === undefined ? {} : { maxRows: request.maxRows },
          );
      const delta = await digestDelta(connection, server, before, after, {
        ...(request.orderBy ? { orderBy: request.orderBy } : {}),
        ...(request.limit ? { limit: request.limit } : {}),
      });
      if (!request.record) return delta;
      const { target } = connections.get(request.connectionId);
      const recorded = await recordCapture(
        services.history,
        captureFromDelta(delta, request.label),
        windowOwner(target),
      );
      return { ...delta, recorded };
    },
    async 'capture.windowStart'(request) {
      const { connection, server } = connections.get(request.connectionId);
      return windows.start(
        request.connectionId,
        connection,
        server,
        request.maxRows === undefined ? {} : { maxRows: request.maxRows },
      );
    },
    async 'capture.windowPoll'(request) {
      const { connection, server } = connections.get(request.connectionId);
      return windows.poll(request.connectionId, request.windowId, connection, server, {
        ...(request.orderBy ? { orderBy: request.orderBy } : {}),
        ...(request.limit ? { limit: request.limit } : {}),
      });
    },
    async 'capture.windowEnd'(request) {
      const last =
        request.record === false ? null : await windows.lastDelta(request.connectionId, request.windowId);
      const ended = windows.end(request.connectionId, request.windowId);
      if (!last) return { ended };
      let owner;
      try {
        owner = windowOwner(connections.get(request.connectionId).target);
      } catch {
        // The connection went (closed meanwhile): the window still ended; without an owner it is not filed.
        return { ended };
      }
      const recorded = await recordCapture(services.history, captureFromDelta(last, request.label), owner);
      return { ended, recorded };
    },
    async 'capture.slowLogTable'(request) {
      const { connection, target } = connections.get(request.connectionId);
      const cursor = request.fromEnd ? await slowLogTableEnd(connection) : request.cursor;
      const result = await readSlowLogTable(connection, {
        ...(cursor ? { cursor } : {}),
        ...(request.maxRows ? { maxRows: request.maxRows } : {}),
        ...(request.orderBy ? { orderBy: request.orderBy } : {}),
        ...(request.limit ? { limit: request.limit } : {}),
      });
      const recorded = request.record
        ? {
            recorded: await recordCapture(
              services.history,
              captureFromDigest(result, 'slow_log', 'mysql.slow_log read', new Date()),
              windowOwner(target),
            ),
          }
        : {};
      // An empty read: say where the server logs instead (log_output=FILE, slow log off).
      if (result.source.rowsRead > 0) return { ...result, ...recorded };
      return { ...result, ...recorded, logging: await readSlowLogLogging(connection).catch(() => undefined) };
    },
    async 'capture.histogram'(request) {
      const { connection, server } = connections.get(request.connectionId);
      return { buckets: await readDigestHistogram(connection, server, request.schema, request.digest) };
    },
    async 'capture.slowLogWindowPlan'(request) {
      const { connection, server } = connections.get(request.connectionId);
      return previewSlowLogWindow(
        connection,
        server,
        request.longQueryTime === undefined ? {} : { longQueryTime: request.longQueryTime },
      );
    },
    async 'capture.slowLogWindow'(request) {
      const { connection, server, target } = connections.get(request.connectionId);
      if (request.consent !== true) {
        throw new AdvisorError('CONSENT_REQUIRED', 'Turning the slow log on needs explicit consent.');
      }
      assertProductionConfirmed(target, request.productionConfirmation, 'Turning the slow log on');
      const options = request.longQueryTime === undefined ? {} : { longQueryTime: request.longQueryTime };
      const plan = await previewSlowLogWindow(connection, server, options);
      const jobId = await loggedWrite(
        services.workspaces,
        target,
        { action: 'slow-log-window', sql: [...plan.apply, ...plan.restore], outcome: 'started' },
        async () =>
          capture.startJob('capture.slowLogWindow', async (signal, progress) => {
            const result = await captureSlowLogWindow(target, server, connection, {
              ...options,
              consent: true,
              ...(connections.slowLogJournal ? { journalPath: connections.slowLogJournal } : {}),
              seconds: request.seconds,
              signal,
              // Once the window is over, a cancel kills the mysql.slow_log read in flight.
              killQuery: queryKiller(target),
              onProgress: (p) => progress({ totalMs: p.totalMs }),
              ...(request.orderBy ? { orderBy: request.orderBy } : {}),
              ...(request.limit ? { limit: request.limit } : {}),
            });
            if (request.record === false) return result;
            const window = captureFromDigest(
              result,
              'slow_log',
              `${request.seconds} s slow-log window`,
              new Date(),
            );
            return {
              ...result,
              recorded: await recordCapture(services.history, window, windowOwner(target)),
            };
          }),
      );
      return { jobId, plan };
    },
    async 'digest.start'(request) {
      // Only files the user chose (a dialog or upload grant, or under --allow-dir): FORBIDDEN otherwise.
      const chosen = request.paths.map((ref) => files.resolve(ref, 'read'));
      const paths = chosen.map((file) => file.path);
      const names = new Map(chosen.map((file) => [file.path, file.name]));
      // The owner is read now: the connection may be closed by the time the digest ends.
      const owner = request.connectionId
        ? windowOwner(connections.get(request.connectionId).target)
        : { profile: null, server: null, production: false };
      const jobId = capture.startJob('digest', async (signal, progress) => {
        // The timeline is a second, light pass over the same files (see slowlog-timeline.ts); a
        // failure there only leaves the chart out, the digest reports file errors itself.
        const timeline = scanSlowLogTimeline(paths, { signal }).catch(() => null);
        const digested = await digestSlowLogFiles(paths, {
          signal,
          onProgress: (p) =>
            progress({
              bytesRead: p.bytesRead,
              totalBytes: p.totalBytes,
              events: p.events,
              eventsPerSecond: p.eventsPerSecond,
            }),
          ...(request.orderBy ? { orderBy: request.orderBy } : {}),
          ...(request.limit ? { limit: request.limit } : {}),
        });
        const result = {
          ...digested,
          source: {
            ...digested.source,
            files: digested.source.files.map((file) => ({
              ...file,
              path: names.get(file.path) ?? file.path,
            })),
          },
        };
        const recorded = request.record
          ? {
              recorded: await recordCapture(
                services.history,
                captureFromDigest(result, 'file', chosen.map((file) => file.name).join(', '), new Date()),
                owner,
              ),
            }
          : {};
        return {
          ...result,
          ...(request.view === 'top' ? { classes: topClassesFromDigest(result) } : {}),
          timeline: await timeline,
          ...recorded,
        };
      });
      return { jobId };
    },
    async 'job.status'(request) {
      return capture.jobStatus(request.jobId);
    },
    async 'job.cancel'(request) {
      return capture.cancelJob(request.jobId);
    },
  };
}
