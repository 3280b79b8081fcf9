import { describe, expect, it } from 'vitest';
import { isWithinQuota, quotaExceeded, quotaUsage, quotaUsageMessage } from './within-quota';
import { messageText } from '@/tests/message-text';

describe('within the apartment quota', () => {
  it('allows a booking while the apartment holds fewer than its quota', () => {
    expect(isWithinQuota(0, 2)).toBe(true);
    expect(isWithinQuota(1, 2)).toBe(true);
    expect(isWithinQuota(2, 2)).toBe(false);
    expect(isWithinQuota(3, 2)).toBe(false);
    expect(isWithinQuota(0, 1)).toBe(true);
  });

  it('says what the service would do, as a 422, in either language', () => {
    const refusal = quotaExceeded({ apartment: '1203', name: 'Eva' }, 'Tvättstuga 1', 2, 2);
    expect(refusal).toMatchObject({ rule: 'within-quota', code: 'unprocessable_entity' });
    expect(refusal.message.key).toBe('rules.quotaExceeded');
    expect(messageText(refusal.message)).toBe('Apartment 1203 already holds 2 of 2 future bookings in Tvättstuga 1; the service would refuse another.');
    expect(messageText(refusal.message, 'sv')).toBe('Lägenhet 1203 har redan 2 av 2 kommande bokningar i Tvättstuga 1; tjänsten skulle neka en till.');
    expect(messageText(quotaExceeded({ apartment: null, name: 'Anna' }, 'Torkrum', 1, 1).message)).toBe(
      'Anna already holds 1 of 1 future booking in Torkrum; the service would refuse another.',
    );
    expect(messageText(quotaExceeded({ apartment: null, name: 'Anna' }, 'Torkrum', 1, 1).message, 'sv')).toBe(
      'Anna har redan 1 av 1 kommande bokning i Torkrum; tjänsten skulle neka en till.',
    );
    expect(messageText(quotaExceeded({ apartment: null, name: '' }, 'R', 10, 10).message)).toMatch(/^This resident already holds 10 of 10 future bookings/);
  });

  it('describes the usage', () => {
    expect(quotaUsage(1, 2, 'Tvättstuga 1')).toBe('1 of 2 future bookings in Tvättstuga 1');
    expect(quotaUsage(0, 1, 'Torkrum')).toBe('0 of 1 future booking in Torkrum');
    expect(messageText(quotaUsageMessage(1, 2, 'Tvättstuga 1'), 'sv')).toBe('1 av 2 kommande bokningar i Tvättstuga 1');
  });
});
