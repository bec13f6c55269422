// Index hygiene in the Index set view: redundant and unused indexes, each with Accept (into the export) and Reject.
import type { RedundantIndex } from '../../core/indexing/hygiene.js';
import type { UnusedIndexReport } from '../../core/indexing/unused.js';
import {
  acceptDrop,
  dropKey,
  rejectDrop,
  type DropCandidate,
  type IndexSetState,
} from '../state/index-set.js';
import type { Workbench } from '../state/context.js';
import { AcceptReject } from './accept-reject.js';

function DropRow({
  wb,
  set,
  candidate,
  blocked,
}: {
  wb: Workbench;
  set: IndexSetState;
  candidate: DropCandidate;
  /** Why Accept is refused here (the only index of a FOREIGN KEY), or null. */
  blocked: string | null;
}) {
  const decision = set.decisions[dropKey(candidate)];
  return (
    <li
      className={`index-set__drop${decision ? ` is-${decision.kind}` : ''}`}
      data-testid="index-set-drop"
      data-index={`${candidate.table}.${candidate.index}`}
      data-decision={decision?.kind ?? 'open'}
    >
      <div className="index-set__row">
        <strong>
          {candidate.table}.{candidate.index}
        </strong>
        <span className="chip chip--muted">{candidate.why.replace(/-/g, ' ')}</span>
        <span className="index-set__numbers">{candidate.notes[0]}</span>
        <AcceptReject
          decision={decision?.kind}
          acceptBlocked={blocked}
          acceptTitle="Into the export: the safe step first (INVISIBLE on MySQL 8, IGNORED on MariaDB 10.6+), the DROP as the later step"
          onAccept={() => void acceptDrop(wb, candidate)}
          onReject={() => void rejectDrop(wb, candidate)}
          testIdPrefix="index-set-drop"
        />
      </div>
      {candidate.notes.slice(1).map((note) => (
        <p key={note} className="index-plan__note">
          {note}
        </p>
      ))}
      <pre className="index-plan__ddl">{candidate.ddl.join('\n')}</pre>
    </li>
  );
}

export function RedundantIndexes({
  wb,
  set,
  redundant,
}: {
  wb: Workbench;
  set: IndexSetState;
  redundant: readonly RedundantIndex[];
}) {
  if (redundant.length === 0) return null;
  return (
    <>
      <h4 className="indexes__subtitle">Redundant indexes</h4>
      <ul className="index-set__hygiene" data-testid="index-set-redundant">
        {redundant.map((entry) => (
          <DropRow
            key={`${entry.table}.${entry.index}`}
            wb={wb}
            set={set}
            blocked={null}
            candidate={{
              table: entry.table,
              index: entry.index,
              ddl: entry.ddl,
              notes: entry.notes,
              why: entry.kind,
            }}
          />
        ))}
      </ul>
    </>
  );
}

export function UnusedIndexes({
  wb,
  set,
  report,
}: {
  wb: Workbench;
  set: IndexSetState;
  report: UnusedIndexReport;
}) {
  return (
    <>
      <h4 className="indexes__subtitle">Unused indexes</h4>
      <div className="index-set__hygiene" data-testid="index-set-unused" data-status={report.status}>
        {report.status === 'unknown' ? (
          <p className="index-plan__note">{report.reason}</p>
        ) : report.indexes.length === 0 ? (
          <p className="index-plan__note">Every index of these tables has been read.</p>
        ) : (
          <ul className="index-set__hygiene">
            {report.indexes.map((entry) => (
              <DropRow
                key={`${entry.table}.${entry.index}`}
                wb={wb}
                set={set}
                blocked={
                  entry.foreignKey
                    ? `The only index of FOREIGN KEY ${entry.foreignKey}: InnoDB refuses to drop it (ERROR 1553)`
                    : null
                }
                candidate={{
                  table: entry.table,
                  index: entry.index,
                  ddl: entry.ddl,
                  notes: entry.notes,
                  why: 'unused',
                }}
              />
            ))}
          </ul>
        )}
        {report.caveats.map((caveat) => (
          <p key={caveat} className="index-plan__note">
            {caveat}
          </p>
        ))}
      </div>
    </>
  );
}
