// Flavor and version awareness: the capability table and version helpers.
export * from './version.js';
export * from './capabilities.js';
export * from './names.js';
