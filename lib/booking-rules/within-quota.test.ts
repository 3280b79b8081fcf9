import { describe, expect, it } from 'vitest';
import { isWithinQuota, quotaExceeded, quotaUsage } from './within-quota';

describe('within the apartment quota', () => {
  it('allows a booking while the apartment holds fewer than its quota', () => {
    expect(isWithinQuota(0, 2)).toBe(true);
    expect(isWithinQuota(1, 2)).toBe(true);
    expect(isWithinQuota(2, 2)).toBe(false);
    expect(isWithinQuota(3, 2)).toBe(false);
    expect(isWithinQuota(0, 1)).toBe(true);
  });

  it('says what the service would do, as a 422', () => {
    expect(quotaExceeded('Apartment 1203', 'Tvättstuga 1', 2, 2)).toEqual({
      rule: 'within-quota',
      code: 'unprocessable_entity',
      message: 'Apartment 1203 already holds 2 of 2 future bookings in Tvättstuga 1; the service would refuse a third.',
    });
    expect(quotaExceeded('Anna', 'Torkrum', 1, 1).message).toBe('Anna already holds 1 of 1 future booking in Torkrum; the service would refuse a second.');
    expect(quotaExceeded('A', 'R', 10, 10).message).toMatch(/refuse an 11th\.$/);
    expect(quotaExceeded('A', 'R', 20, 20).message).toMatch(/refuse a 21st\.$/);
    expect(quotaExceeded('A', 'R', 17, 17).message).toMatch(/refuse an 18th\.$/);
    expect(quotaExceeded('A', 'R', 27, 27).message).toMatch(/refuse a 28th\.$/);
    expect(quotaExceeded('A', 'R', 81, 100).message).toMatch(/refuse an 82nd\.$/);
  });

  it('describes the usage', () => {
    expect(quotaUsage(1, 2, 'Tvättstuga 1')).toBe('1 of 2 future bookings in Tvättstuga 1');
    expect(quotaUsage(0, 1, 'Torkrum')).toBe('0 of 1 future booking in Torkrum');
  });
});
