// Server version parsing and comparison; the one place that reads version strings.

/** A parsed server version: major.minor.patch. */
export interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

/**
 * Parse the leading `X.Y[.Z]` of a version string such as `8.0.33`, `10.11.6-MariaDB-0+deb12u1`
 * or `5.5.5-10.11.6-MariaDB` (MariaDB's replication-compatible prefix is skipped).
 */
export function parseVersion(text: string): Version | undefined {
  const cleaned = text.trim().replace(/^5\.5\.5-/, '');
  const match = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(cleaned);
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3] ?? 0) };
}

/** Negative when a < b, 0 when equal, positive when a > b. */
export function compareVersions(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** True when `version` satisfies a gate like `>=8.0.13` or `<10.6`. */
export function satisfies(version: Version, gate: string): boolean {
  const match = /^(>=|<=|>|<|=)?\s*(.+)$/.exec(gate.trim());
  const bound = match ? parseVersion(match[2] ?? '') : undefined;
  if (!match || !bound) throw new Error(`Bad version gate: ${gate}`);
  const cmp = compareVersions(version, bound);
  switch (match[1] ?? '>=') {
    case '>=':
      return cmp >= 0;
    case '<=':
      return cmp <= 0;
    case '>':
      return cmp > 0;
    case '<':
      return cmp < 0;
    default:
      return cmp === 0;
  }
}

/** `8.0.33` */
export function formatVersion(version: Version): string {
  return `${version.major}.${version.minor}.${version.patch}`;
}
