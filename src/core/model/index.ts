// Data model shared by every face: server info, schema, report.
export * from './server-info.js';
export * from './schema.js';
export * from './report.js';
