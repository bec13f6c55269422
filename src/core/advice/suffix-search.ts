// Advice for a suffix search (`email LIKE '%@example.com'`): an indexed generated column holding
// REVERSE(column), searched by prefix.
//
// Design note: LIKE compares character by character, so `s LIKE '%x'` matches exactly when
// `REVERSE(s) LIKE 'reverse(x)%'` — only under collations without contractions (a collation that
// treats a letter sequence as one unit breaks the symmetry, and then nothing is proposed). The
// generated column declares the column's character set and collation, and the query must name it:
// no server substitutes a generated column for LIKE.

import type { Suggestion } from '../model/report.js';
import type { ServerInfo } from '../model/server-info.js';
import type { AstNode } from '../sql/ast.js';
import type { PredicateSite } from '../sql/predicates.js';
import type { ResolvedColumn } from '../rules/engine.js';
import { declaredLength, effectiveCharset, effectiveCollation } from './column-types.js';
import {
  generatedKeyPrefix,
  keyPartsSql,
  quoteIdentifier,
  uniqueName,
  type ProposedPart,
} from './index-ddl.js';
import { likePrefixPattern } from './literals.js';
import { columnNode, compareNode, editStatement, stringNode } from './sql-edit.js';

/** Collations whose LIKE matches code point by code point (no contractions): a suffix of the column is a prefix of its REVERSE(). */
const SYMMETRIC_LIKE_COLLATION =
  /^[a-z0-9]+_(general_ci|general_cs|bin|unicode_ci|unicode_520_ci|0900_ai_ci|0900_as_ci|0900_as_cs|0900_bin|uca1400_ai_ci|uca1400_ai_cs|uca1400_as_ci|uca1400_as_cs|swedish_ci)$/;

/**
 * A suffix search (`email LIKE '%@example.com'`) as a prefix search on an indexed generated column
 * holding REVERSE(email): `email_reversed LIKE 'moc.elpmaxe@%'`. The column is declared with the
 * column's collation, and the query must name it (no server substitutes a generated column for LIKE).
 */
export function suffixSearchAdvice(input: {
  sql: string;
  ast: AstNode;
  server: ServerInfo;
  site: PredicateSite;
  column: ResolvedColumn;
  suffix: string;
}): { suggestion?: Suggestion; note?: string } {
  const { column, server } = input;
  const info = column.info;
  const table = column.table;
  if (!info || !table) return {};
  if (!server.capabilities.indexedVirtualColumns)
    return { note: 'This server cannot index a generated column, so a suffix search always scans.' };
  const length = declaredLength(info);
  const collation = effectiveCollation(info, table);
  const charset = effectiveCharset(info, table);
  if (!length || !collation || !charset || !/char/i.test(info.dataType))
    return {
      note: `No REVERSE() column proposed: ${!length ? `the length of ${info.name} is unknown (CHAR/VARCHAR only)` : `the collation of ${info.name} is unknown`}.`,
    };
  // MariaDB refuses REVERSE() of a CHAR column in a generated column: its trailing spaces depend on the
  // session's PAD_CHAR_TO_FULL_LENGTH (ERROR 1901, measured on 10.11 by advice-rewrites-property.test.ts).
  if (server.flavor === 'mariadb' && info.dataType.toLowerCase() === 'char')
    return {
      note: `No REVERSE() column proposed: MariaDB does not accept REVERSE() of the CHAR column ${info.name} in a generated column (ERROR 1901, it depends on PAD_CHAR_TO_FULL_LENGTH); a VARCHAR column can have one.`,
    };
  if (!SYMMETRIC_LIKE_COLLATION.test(collation))
    return {
      note: `No REVERSE() column proposed: ${collation} may treat letter sequences as one (contractions), so a reversed prefix search is not proven equivalent.`,
    };
  if (input.site.node.escape) return {};
  const columnName = uniqueName(
    `${info.name}_reversed`,
    table.columns.map((candidate) => candidate.name),
  );
  const indexName = uniqueName(
    `idx_${table.name}_${columnName}`,
    table.indexes.map((index) => index.name),
  );
  const type = `VARCHAR(${length}) CHARACTER SET ${charset} COLLATE ${collation}`;
  const parts: ProposedPart[] = [{ column: columnName, ...generatedKeyPrefix(type) }];
  const backslashEscapes = !/NO_BACKSLASH_ESCAPES/i.test(server.sqlMode.session);
  const reversed = [...input.suffix].reverse().join('');
  const edited = editStatement(
    input.sql,
    input.ast,
    input.site.node,
    compareNode(
      'LIKE',
      columnNode(column.qualifier, columnName),
      stringNode(likePrefixPattern(reversed, backslashEscapes)),
    ),
    server.flavor,
  );
  if (!edited) return {};
  return {
    suggestion: {
      kind: 'generated-column',
      equivalent: true,
      ddl: [
        `ALTER TABLE ${quoteIdentifier(table.name)} ADD COLUMN ${quoteIdentifier(columnName)} ${type} GENERATED ALWAYS AS (REVERSE(${quoteIdentifier(info.name)})) VIRTUAL, ADD INDEX ${quoteIdentifier(indexName)} (${keyPartsSql(parts)});`,
      ],
      indexName,
      rewrittenSql: edited.sql,
      notes: [
        `LIKE matches character by character, so ${info.name} ends with '${input.suffix}' exactly when REVERSE(${info.name}) starts with '${reversed}': the rewritten query seeks the index on ${columnName}.`,
        `The query must name ${columnName}: no server substitutes a generated column for LIKE. Writes maintain it; a VIRTUAL column stores nothing in the rows, only the index takes space.`,
      ],
    },
  };
}
