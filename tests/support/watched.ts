// A connection as the code under test sees it, counting its statements, so a test can wait for what
// that code did on the server instead of sleeping a fixed time (which races on a loaded machine).
import type mysql from 'mysql2/promise';

/**
 * `connection` with its `query` calls counted. Between two snapshots a capture window sleeps with
 * none in flight; a check from a timer never sees the gap between two statements of one snapshot
 * (the next starts in the same turn the previous one's reply arrives). One connection answers its
 * statements in order, so a statement started after `started()` returned N has ended once `done() > N`.
 */
export function watched(connection: mysql.Connection): {
  connection: mysql.Connection;
  started: () => number;
  done: () => number;
  idle: () => boolean;
} {
  let started = 0;
  let done = 0;
  const proxy = new Proxy(connection, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (key !== 'query') return value.bind(target);
      return (...args: unknown[]) => {
        started += 1;
        return (value.apply(target, args) as Promise<unknown>).finally(() => (done += 1));
      };
    },
  });
  return {
    connection: proxy,
    started: () => started,
    done: () => done,
    idle: () => done > 0 && started === done,
  };
}
