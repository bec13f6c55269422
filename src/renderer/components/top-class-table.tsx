// The Top queries table: ranked classes in a virtualized table (only the rows in view are in the DOM), sortable by column.
import { useVirtualizer } from '@tanstack/react-virtual';
import { Fragment, memo, useCallback, useEffect, useRef, type KeyboardEvent } from 'react';
import type { TopClass, TopSortKey } from '../../core/capture/index.js';
import type { ClassTrend } from '../../core/history/index.js';
import type { TopSort } from '../state/top-queries.js';
import { count, exactCount, seconds } from './top-format.js';
import { TrendCell } from './top-trends.js';

/** The sortable columns; `lifetime` ones are since the digest was first seen in a live window. */
const columns: { key: TopSortKey; label: string; title: string; lifetime?: boolean }[] = [
  { key: 'totalSeconds', label: 'Total', title: 'Total query time of the class' },
  { key: 'count', label: 'Count', title: 'Executions' },
  { key: 'avg', label: 'Avg', title: 'Average query time' },
  { key: 'p95', label: '95th', title: '95th percentile of the query time', lifetime: true },
  { key: 'max', label: 'Max', title: 'Longest query time', lifetime: true },
  { key: 'lockSeconds', label: 'Lock', title: 'Total lock time' },
  { key: 'rowsExamined', label: 'Exam.', title: 'Rows examined' },
  { key: 'rowsSent', label: 'Sent', title: 'Rows sent' },
];

/** Live digests: performance_schema keeps 95th and max per digest since it was first seen, not per window. */
const lifetimeNote =
  'since the digest was first seen (performance_schema keeps no per-window quantiles; Total, Count and Avg are the window)';

/** `12.3%`, `<0.1%`, `—` when the total is unknown. */
export function percentOfTotal(value: number, total: number): string {
  if (!(total > 0)) return '—';
  const share = (value / total) * 100;
  if (share > 0 && share < 0.1) return '<0.1%';
  return `${share.toFixed(1)}%`;
}

/** Row height of the virtualized table (CSS keeps every row on one line at this height). */
const ROW_HEIGHT = 26;
function rowHeight(): number {
  return ROW_HEIGHT;
}
export { count, exactCount, seconds } from './top-format.js';

/**
 * The virtualized class table: only the rows in view (plus a few) are in the DOM, between two
 * spacer rows, so 100k classes scroll like 20. Its own component, so scrolling re-renders the
 * rows only, not the charts and details.
 */
export const ClassTable = memo(function ClassTable({
  classes,
  empty,
  selected,
  onSelect,
  sort,
  onSort,
  resetKey,
  totalSeconds,
  lifetime = false,
  trends = null,
}: {
  classes: TopClass[];
  empty: string;
  selected: string | null;
  onSelect(id: string): void;
  sort: TopSort;
  onSort(key: TopSortKey): void;
  /** A new list scrolls back to the top. */
  resetKey: unknown;
  /** Query time of the whole list (not only the shown classes): the "% of total" column's base. */
  totalSeconds: number;
  /** 95th and Max are since each digest was first seen (live digests). */
  lifetime?: boolean;
  /** Each class's trend over the stored windows (null: the window is not in the history): a Trend column and markers. */
  trends?: Map<string, ClassTrend> | null;
}) {
  const windowP95 = classes.length > 0 && classes.every((entry) => entry.latency.windowQuantiles === true);
  const span = columns.length + 3 + (trends ? 1 : 0);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: classes.length,
    getScrollElement: useCallback(() => scroller.current, []),
    // Stable identity: a new function would make the virtualizer re-measure all rows on each render.
    estimateSize: rowHeight,
    overscan: 6,
  });
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [resetKey]);
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length > 0 ? virtualizer.getTotalSize() - items.at(-1)!.end : 0;

  function move(event: KeyboardEvent<HTMLDivElement>) {
    if (classes.length === 0) return;
    const index = classes.findIndex((entry) => entry.id === selected);
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 260) / ROW_HEIGHT) - 2);
    const next = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      PageDown: index + page,
      PageUp: index - page,
      Home: 0,
      End: classes.length - 1,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const clamped = Math.min(classes.length - 1, Math.max(0, next));
    onSelect(classes[clamped]!.id);
    virtualizer.scrollToIndex(clamped, { align: 'auto' });
  }

  return (
    <div
      className="top__table-wrap"
      ref={scroller}
      tabIndex={0}
      onKeyDown={move}
      aria-label="Query classes (arrow keys select)"
      data-testid="top-scroller"
    >
      <table className="data-table top__table" data-testid="top-table" aria-rowcount={classes.length}>
        <thead>
          <tr>
            <th scope="col" className="top__col-rank">
              #
            </th>
            {columns.map(({ key, label, title, lifetime: lifetimeColumn }) => {
              // MySQL windows measure their own 95th (histogram deltas): no asterisk then.
              const since = lifetimeColumn && !(key === 'p95' && windowP95);
              return (
                <Fragment key={key}>
                  <th
                    scope="col"
                    className="top__col-number"
                    aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : undefined}
                    data-testid={`top-col-${key}`}
                  >
                    <button
                      type="button"
                      className="top__sort"
                      onClick={() => onSort(key)}
                      title={
                        lifetime && since
                          ? `${title}, ${lifetimeNote}`
                          : lifetime && key === 'p95'
                            ? `${title} in the window (from the histogram buckets' differences between snapshots)`
                            : title
                      }
                      data-testid={`top-sort-${key}`}
                    >
                      {label}
                      {lifetime && since ? '*' : ''}
                      {sort.key === key ? (sort.descending ? ' ▾' : ' ▴') : ''}
                    </button>
                  </th>
                  {key === 'count' && trends && (
                    <th
                      scope="col"
                      className="top__col-trend"
                      title="Executions and query time per stored window of this server and source, oldest first"
                      data-testid="top-col-trend"
                    >
                      Trend
                    </th>
                  )}
                  {key === 'totalSeconds' && (
                    <th
                      scope="col"
                      className="top__col-number"
                      title="Share of the total query time of every class in the list"
                      data-testid="top-col-share"
                    >
                      % total
                    </th>
                  )}
                </Fragment>
              );
            })}
            <th scope="col" className="top__col-fingerprint">
              Fingerprint
            </th>
          </tr>
        </thead>
        <tbody>
          {padTop > 0 && (
            <tr className="top__pad" aria-hidden="true">
              <td colSpan={span} style={{ height: padTop }} />
            </tr>
          )}
          {items.map((item) => {
            const entry = classes[item.index]!;
            return (
              <tr
                key={entry.id}
                className={entry.id === selected ? 'is-selected' : ''}
                onClick={() => onSelect(entry.id)}
                aria-rowindex={item.index + 1}
                aria-selected={entry.id === selected}
                data-testid="top-class"
              >
                <td>{item.index + 1}</td>
                <td>{seconds(entry.totalSeconds)}</td>
                <td data-testid="top-class-share">{percentOfTotal(entry.totalSeconds, totalSeconds)}</td>
                <td data-testid="top-class-count" title={exactCount(entry.count)}>
                  {count(entry.count)}
                </td>
                {trends && (
                  <td>
                    <TrendCell trend={trends.get(entry.id)} />
                  </td>
                )}
                <td>{seconds(entry.latency.avg)}</td>
                <td>{seconds(entry.latency.p95)}</td>
                <td>{seconds(entry.latency.max)}</td>
                <td>{seconds(entry.lockSeconds)}</td>
                <td title={exactCount(entry.rowsExamined)}>{count(entry.rowsExamined)}</td>
                <td title={exactCount(entry.rowsSent)}>{count(entry.rowsSent)}</td>
                <td className="top__fingerprint" title={entry.fingerprint}>
                  {entry.fingerprint}
                </td>
              </tr>
            );
          })}
          {padBottom > 0 && (
            <tr className="top__pad" aria-hidden="true">
              <td colSpan={span} style={{ height: padBottom }} />
            </tr>
          )}
        </tbody>
      </table>
      {classes.length === 0 && (
        <p className="empty-state__hint" data-testid="top-no-match">
          {empty}
        </p>
      )}
    </div>
  );
});
