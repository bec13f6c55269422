// A finding's stable identity: the rule, the statement's fingerprint, the table, columns and expression.
//
// Design note: list positions change whenever the text is edited and analysed again, so nothing that must
// survive a re-analysis (the Findings panel's "in export" badges, the selection, the workspace's record of
// which fixes are alternatives of one another) may be keyed by them. The statement is identified by its
// pt-query-digest fingerprint checksum (literals and spacing do not matter), the finding by its rule and
// what it points at. Two findings with the same identity are the same problem in the same query shape.

import { checksum, fingerprint } from '../fingerprint/index.js';
import type { Finding } from '../model/report.js';

/** `FUN001:<16 hex of the statement fingerprint checksum>:products:create_time:MONTH(create_time)`. */
export function findingIdentity(
  statementSql: string,
  finding: Pick<Finding, 'rule' | 'table' | 'columns' | 'expression'>,
): string {
  const statement = checksum(fingerprint(statementSql)).slice(0, 16);
  return [
    finding.rule,
    statement,
    (finding.table ?? '').toLowerCase(),
    finding.columns.map((column) => column.toLowerCase()).join(','),
    finding.expression.replace(/\s+/g, ' ').trim(),
  ].join(':');
}
