// Number formats of the Top queries views (table, details, history): query times and counts that fit their columns.

export function seconds(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (value >= 1) return `${value.toFixed(2)} s`;
  if (value >= 0.001) return `${(value * 1000).toFixed(1)} ms`;
  return `${Math.round(value * 1_000_000)} µs`;
}

// Number formatters made once: toLocaleString with options builds a new formatter on every call,
// which was the largest cost of rendering rows while scrolling (profiled at 100k classes).
const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const twoDecimals = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/**
 * A count in the Top queries table: at most seven characters, so it fits its column at 1280×800 (a
 * server under sysbench load ran one class 1,567,400 times in a window, and the whole number was
 * cut). Millions and billions are shown with three significant digits; the cell's title has the
 * exact number ({@link exactCount}).
 */
export function count(value: number | null): string {
  if (value === null) return '—';
  if (value >= 999_500_000) return `${(value / 1_000_000_000).toPrecision(3)}G`;
  if (value >= 999_500) return `${(value / 1_000_000).toPrecision(3)}M`;
  if (value >= 1000 || Math.round(value * 100) % 100 === 0) return wholeNumber.format(Math.round(value));
  return twoDecimals.format(value);
}

/** The exact count, for the cell's title. */
export function exactCount(value: number | null): string | undefined {
  return value === null ? undefined : twoDecimals.format(value);
}
