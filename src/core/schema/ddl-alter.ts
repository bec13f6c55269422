// ALTER TABLE for the schema loader (ddl-load.ts), read from tokens. (alter.ts is the other ALTER
// reader: it applies node-sql-parser's AST of an ALTER in a script the advisor analyses.)
//
// Design note: clauses are applied in order to the loaded table: ADD/DROP/MODIFY/CHANGE/RENAME COLUMN,
// ADD/DROP/RENAME INDEX, ALTER INDEX … [IN]VISIBLE / [NOT] IGNORED, RENAME TO and ENGINE=; the rest
// (partition maintenance, DISABLE KEYS, AUTO_INCREMENT=, ALTER COLUMN … DEFAULT, …) is read past. An
// ALTER of a table not loaded before it is skipped with its reason.

import type { StatementSlice } from '../sql/split.js';
import { readColumn } from './ddl-columns.js';
import type { Reader } from './ddl-reader.js';
import { keyOf, type LoadState, type Skip } from './ddl-state.js';
import { applyKeyLimits } from './ddl-keys.js';
import { addIndex, finishTable, readTableElement } from './ddl-tables.js';

/** ALTER TABLE: the changes that decide columns and indexes; the rest (ENGINE, partitions, …) is read past. */
export function readAlter(reader: Reader, state: LoadState, slice: StatementSlice, skip: Skip): void {
  void slice;
  if (!reader.accept('ONLINE')) reader.accept('OFFLINE');
  reader.accept('IGNORE');
  if (!reader.accept('TABLE')) {
    state.summary.ignored++;
    return;
  }
  reader.accept('IF', 'EXISTS');
  const target = reader.qualifiedName('a table name');
  const key = keyOf(target.database ?? state.database, target.name);
  const table = state.tables.get(key);
  if (!table) {
    skip(
      `ALTER TABLE ${target.name}: the table is not defined before this statement`,
      reader.peek()?.start ?? 0,
    );
    return;
  }
  const foreignKeys: { columns: string[]; name: string | null }[] = [];
  do {
    if (reader.atEnd()) break;
    if (reader.accept('ADD')) {
      reader.accept('COLUMN');
      reader.accept('IF', 'NOT', 'EXISTS');
      if (reader.isPunct('(')) {
        reader.index++;
        do {
          readTableElement(reader, state, table, foreignKeys);
        } while (reader.acceptPunct(','));
        reader.expectPunct(')');
      } else {
        readTableElement(reader, state, table, foreignKeys);
        reader.accept('FIRST');
        if (reader.accept('AFTER')) reader.identifier('a column name');
      }
    } else if (reader.accept('DROP')) {
      if (reader.accept('PRIMARY', 'KEY')) table.indexes = table.indexes.filter((index) => !index.primary);
      else if (reader.accept('INDEX') || reader.accept('KEY')) {
        reader.accept('IF', 'EXISTS');
        const name = reader.identifier('an index name').toLowerCase();
        table.indexes = table.indexes.filter((index) => index.name.toLowerCase() !== name);
      } else if (
        reader.accept('FOREIGN', 'KEY') ||
        reader.accept('CONSTRAINT') ||
        reader.accept('CHECK') ||
        reader.accept('PARTITION')
      ) {
        reader.skipToElementEnd();
      } else {
        reader.accept('COLUMN');
        reader.accept('IF', 'EXISTS');
        const name = reader.identifier('a column name').toLowerCase();
        table.columns = table.columns.filter((column) => column.name.toLowerCase() !== name);
        for (const index of table.indexes)
          index.parts = index.parts.filter((part) => part.column?.toLowerCase() !== name);
        table.indexes = table.indexes.filter((index) => index.parts.length > 0);
      }
    } else if (reader.accept('MODIFY') || reader.is('CHANGE')) {
      const change = reader.accept('CHANGE');
      reader.accept('COLUMN');
      reader.accept('IF', 'EXISTS');
      const old = change ? reader.identifier('a column name') : null;
      const column = readColumn(reader, state, table);
      const oldName = (old ?? column.info.name).toLowerCase();
      const at = table.columns.findIndex((entry) => entry.name.toLowerCase() === oldName);
      if (at === -1) table.columns.push(column.info);
      else table.columns[at] = column.info;
      if (old && old.toLowerCase() !== column.info.name.toLowerCase())
        for (const index of table.indexes)
          for (const part of index.parts)
            if (part.column?.toLowerCase() === oldName) part.column = column.info.name;
      for (const index of column.indexes) addIndex(table, index);
      reader.accept('FIRST');
      if (reader.accept('AFTER')) reader.identifier('a column name');
    } else if (reader.accept('RENAME')) {
      if (reader.accept('INDEX') || reader.accept('KEY')) {
        const from = reader.identifier('an index name').toLowerCase();
        reader.accept('TO');
        const to = reader.identifier('an index name');
        const index = table.indexes.find((entry) => entry.name.toLowerCase() === from);
        if (index) index.name = to;
      } else if (reader.accept('COLUMN')) {
        const from = reader.identifier('a column name').toLowerCase();
        reader.accept('TO');
        const to = reader.identifier('a column name');
        const column = table.columns.find((entry) => entry.name.toLowerCase() === from);
        if (column) column.name = to;
        for (const index of table.indexes)
          for (const part of index.parts) if (part.column?.toLowerCase() === from) part.column = to;
      } else {
        if (!reader.accept('TO')) reader.accept('AS');
        const to = reader.qualifiedName('a table name');
        state.tables.delete(key);
        table.name = to.name;
        table.schema = to.database ?? state.database;
        state.tables.set(keyOf(table.schema, table.name), table);
      }
    } else if (reader.accept('ALTER', 'INDEX') || reader.accept('ALTER', 'KEY')) {
      const name = reader.identifier('an index name').toLowerCase();
      const index = table.indexes.find((entry) => entry.name.toLowerCase() === name);
      if (reader.accept('INVISIBLE') || reader.accept('IGNORED')) {
        if (index) index.visible = false;
      } else if (reader.accept('VISIBLE') || reader.accept('NOT', 'IGNORED')) {
        if (index) index.visible = true;
      }
    } else {
      // ENGINE=…, AUTO_INCREMENT=…, DISABLE KEYS, ALGORITHM=…, partition maintenance, ALTER COLUMN … DEFAULT …
      if (reader.accept('ENGINE')) {
        reader.acceptPunct('=');
        table.engineName = reader.value();
        table.engine = table.engineName;
      }
      reader.skipToElementEnd();
    }
  } while (reader.acceptPunct(','));
  finishTable(Object.assign(table, { pendingForeignKeys: foreignKeys }), state);
  // Keys added or changed are cut or hashed as the engine does (a refusal is not undone here).
  applyKeyLimits(table, state);
  state.summary.ignored++;
}
