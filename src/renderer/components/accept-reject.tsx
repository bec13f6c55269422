// Accept / Reject of one decision in the Index set view (an index of the set, a hygiene drop), with its badge.
export function AcceptReject({
  decision,
  onAccept,
  onReject,
  acceptBlocked = null,
  acceptTitle,
  testIdPrefix,
}: {
  decision: 'accepted' | 'rejected' | undefined;
  onAccept: () => void;
  onReject: () => void;
  /** Why Accept is refused (shown as its title), or null. */
  acceptBlocked?: string | null;
  acceptTitle: string;
  /** `index-set` gives `index-set-accept` / `index-set-reject`. */
  testIdPrefix: string;
}) {
  return (
    <span className="suggestion__actions">
      {decision === 'accepted' && <span className="badge badge--ok">in export</span>}
      {decision === 'rejected' && <span className="badge badge--caution">rejected</span>}
      <button
        type="button"
        className="button button--small"
        disabled={decision === 'accepted' || acceptBlocked !== null}
        title={acceptBlocked ?? acceptTitle}
        onClick={onAccept}
        data-testid={`${testIdPrefix}-accept`}
      >
        Accept
      </button>
      <button
        type="button"
        className="button button--small"
        disabled={decision === 'rejected'}
        onClick={onReject}
        data-testid={`${testIdPrefix}-reject`}
      >
        Reject
      </button>
    </span>
  );
}
