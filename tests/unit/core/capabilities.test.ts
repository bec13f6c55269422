import { describe, expect, it } from 'vitest';
import { capabilitiesFor } from '../../../src/core/flavors/capabilities.js';
import { parseVersion, satisfies } from '../../../src/core/flavors/version.js';

describe('capability table', () => {
  it('parses server version strings', () => {
    expect(parseVersion('8.0.33')).toEqual({ major: 8, minor: 0, patch: 33 });
    expect(parseVersion('10.11.6-MariaDB-0+deb12u1')).toEqual({ major: 10, minor: 11, patch: 6 });
    expect(parseVersion('5.5.5-10.6.12-MariaDB')).toEqual({ major: 10, minor: 6, patch: 12 });
    expect(parseVersion('nonsense')).toBeUndefined();
    expect(satisfies({ major: 8, minor: 0, patch: 13 }, '>=8.0.13')).toBe(true);
    expect(satisfies({ major: 8, minor: 0, patch: 12 }, '>=8.0.13')).toBe(false);
  });

  it('gates features per flavor and version', () => {
    const pick = (flavor: 'mysql' | 'mariadb', version: string) => {
      const caps = capabilitiesFor(flavor, version);
      return [
        caps.functionalIndexes,
        caps.generatedColumnSubstitution,
        caps.dataLocks,
        caps.explainTree,
        caps.nowait,
        caps.skipLocked,
        caps.nowaitErrorCode,
      ];
    };
    expect(pick('mysql', '8.0.33')).toEqual([true, true, true, true, true, true, 3572]);
    expect(pick('mysql', '8.0.12')).toEqual([false, true, true, false, true, true, 3572]);
    expect(pick('mysql', '5.7.40')).toEqual([false, true, false, false, false, false, null]);
    expect(pick('mariadb', '10.11.6')).toEqual([false, false, false, false, true, true, 1205]);
    expect(pick('mariadb', '10.5.0')).toEqual([false, false, false, false, true, false, 1205]);
    expect(pick('mariadb', '10.2.0')).toEqual([false, false, false, false, false, false, null]);
  });
});
