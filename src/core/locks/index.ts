// Lock waits: the model, the blocking forest, lock_data decoding, deadlock parsing and locking-read rewrites.
export * from './types.js';
export * from './lock-mode.js';
export * from './lock-data.js';
export * from './tree.js';
export * from './deadlock.js';
export * from './locking-clause.js';
export * from './rewrite.js';
export * from './batching.js';
export * from './footprint.js';
export * from './metadata-tree.js';
