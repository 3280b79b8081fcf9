import { describe, expect, it } from 'vitest';
import { weekKeyOfDate } from './week-nav';

describe('weekKeyOfDate', () => {
  it('finds the ISO week of a calendar date, across year ends', () => {
    expect(weekKeyOfDate('2026-12-09')).toBe('2026-W50');
    expect(weekKeyOfDate('2026-11-23')).toBe('2026-W48'); // a Monday
    expect(weekKeyOfDate('2026-11-29')).toBe('2026-W48'); // its Sunday
    expect(weekKeyOfDate('2027-01-01')).toBe('2026-W53');
    expect(weekKeyOfDate('2025-12-29')).toBe('2026-W01');
  });

  it('refuses what is not a whole date', () => {
    expect(weekKeyOfDate('')).toBeNull();
    expect(weekKeyOfDate('2026-02-30')).toBeNull();
    expect(weekKeyOfDate('2026-W50')).toBeNull();
  });
});
