// Compares a schema model read from DDL text with the server's (information_schema) model: the
// differences as readable lines, so a failing test says which table, column or index differs.
import type { ColumnInfo, IndexInfo, SchemaModel, TableInfo } from '../../src/core/model/schema.js';

export interface CompareOptions {
  /**
   * Dumps and SHOW CREATE TABLE print the server's normalised DDL: column types, charsets and
   * collations must then match exactly. Hand-written DDL says less (`INT` for `int(11)`, no charset):
   * only what it states is compared.
   */
  exact: boolean;
}

const norm = (text: string | null | undefined): string =>
  (text ?? '')
    .toLowerCase()
    .replace(/[`\s]/g, '')
    .replace(/^\((.*)\)$/, '$1');

function describeIndex(index: IndexInfo, exact: boolean): string {
  const parts = index.parts
    .map((part) =>
      part.column !== null
        ? `${part.column.toLowerCase()}${part.prefixLength !== null ? `(${part.prefixLength})` : ''}`
        : exact
          ? `expr:${norm(part.expression)}`
          : 'expr',
    )
    .join(',');
  return `${index.primary ? 'primary ' : ''}${index.unique ? 'unique ' : ''}${index.kind} ${index.visible ? 'visible' : 'invisible'} (${parts})`;
}

function columnFacts(
  column: ColumnInfo,
  exact: boolean,
  stated: ColumnInfo | undefined,
): Record<string, unknown> {
  const facts: Record<string, unknown> = {
    dataType: column.dataType,
    nullable: column.nullable,
    generated: column.generated ? (column.generated.stored ? 'stored' : 'virtual') : 'no',
    autoIncrement: column.autoIncrement,
    invisible: column.invisible === true,
  };
  if (exact) facts.columnType = column.columnType;
  // Charset and collation: always for dumps; for hand-written DDL where the text decided them.
  if (exact || stated?.charset) facts.charset = column.charset;
  if (exact || stated?.collation) facts.collation = column.collation;
  return facts;
}

/** Lines describing every difference between the server's tables/views and the loaded ones. */
export function schemaDifferences(
  server: SchemaModel,
  loaded: SchemaModel,
  options: CompareOptions,
): string[] {
  const differences: string[] = [];
  const byName = new Map(loaded.tables.map((table) => [table.name.toLowerCase(), table]));
  for (const truth of server.tables) {
    const table = byName.get(truth.name.toLowerCase());
    if (!table) {
      differences.push(`${truth.kind ?? 'table'} ${truth.name}: not loaded`);
      continue;
    }
    byName.delete(truth.name.toLowerCase());
    if ((truth.kind ?? 'table') !== (table.kind ?? 'table'))
      differences.push(`${truth.name}: kind ${table.kind ?? 'table'}, server says ${truth.kind ?? 'table'}`);
    compareTable(truth, table, options, differences);
  }
  for (const extra of byName.values())
    differences.push(`${extra.kind ?? 'table'} ${extra.name}: loaded but not on the server`);
  return differences;
}

function compareTable(truth: TableInfo, table: TableInfo, options: CompareOptions, out: string[]): void {
  const names = (columns: ColumnInfo[]) => columns.map((column) => column.name).join(', ');
  if (names(truth.columns) !== names(table.columns)) {
    out.push(`${truth.name}: columns [${names(table.columns)}], server has [${names(truth.columns)}]`);
    return;
  }
  if (truth.kind === 'view') return; // view column types are resolved only where the view names a column
  truth.columns.forEach((column, position) => {
    const loaded = table.columns[position]!;
    const expected = columnFacts(column, options.exact, loaded);
    const actual = columnFacts(loaded, options.exact, loaded);
    for (const key of Object.keys(expected))
      if (JSON.stringify(expected[key]) !== JSON.stringify(actual[key]))
        out.push(
          `${truth.name}.${column.name}: ${key} ${JSON.stringify(actual[key])}, server says ${JSON.stringify(expected[key])}`,
        );
  });
  if (options.exact && truth.collation !== table.collation)
    out.push(`${truth.name}: collation ${table.collation}, server says ${truth.collation}`);
  const indexes = (list: IndexInfo[]) =>
    new Map(list.map((index) => [index.name.toLowerCase(), describeIndex(index, options.exact)]));
  const expected = indexes(truth.indexes);
  const actual = indexes(table.indexes);
  for (const [name, description] of expected) {
    const loaded = actual.get(name);
    if (loaded === undefined) out.push(`${truth.name}: index ${name} not loaded (${description})`);
    else if (loaded !== description)
      out.push(`${truth.name}: index ${name} is ${loaded}, server says ${description}`);
  }
  for (const [name, description] of actual)
    if (!expected.has(name))
      out.push(`${truth.name}: index ${name} loaded (${description}) but not on the server`);
}
