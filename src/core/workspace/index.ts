// Public surface of the workspace module.
export * from './model.js';
