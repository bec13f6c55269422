// The inline WebAssembly build of sql.js (history-db.ts) has the same API as the package's main entry.
declare module 'sql.js/dist/sql-wasm-inline.js' {
  import initSqlJs from 'sql.js';
  export default initSqlJs;
  export type { Database, SqlJsStatic, SqlValue } from 'sql.js';
}
