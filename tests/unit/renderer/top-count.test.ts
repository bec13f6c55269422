// The Top queries table's counts: short enough for their 70px column at 1280×800, exact in the title.
import { describe, expect, it } from 'vitest';
import { count, exactCount } from '../../../src/renderer/components/top-class-table.js';

describe('count in the Top queries table', () => {
  it('whole numbers up to 999,499 with separators; millions and billions with three significant digits', () => {
    expect(count(null)).toBe('—');
    expect(count(0)).toBe('0');
    expect(count(12)).toBe('12');
    expect(count(2.5)).toBe('2.5');
    expect(count(1234.56)).toBe('1,235');
    expect(count(999_499)).toBe('999,499');
    expect(count(999_500)).toBe('1.00M');
    expect(count(1_567_400)).toBe('1.57M');
    expect(count(15_674_000)).toBe('15.7M');
    expect(count(999_499_999)).toBe('999M');
    expect(count(999_500_000)).toBe('1.00G');
    expect(count(123_456_789_012)).toBe('123G');
  });

  it('never more than seven characters below a trillion; the title keeps the exact value', () => {
    for (let value = 1; value < 1e12; value = value * 3 + 7)
      expect(count(value).length).toBeLessThanOrEqual(7);
    expect(exactCount(1_567_400)).toBe('1,567,400');
    expect(exactCount(null)).toBeUndefined();
  });
});
