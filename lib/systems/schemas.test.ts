import { describe, expect, it } from 'vitest';
import { issueText } from '@/tests/message-text';
import { approvalIdSchema, requestBudgetSchema, systemUpdateSchema, timeZoneSchema } from './schemas';

describe('system input', () => {
  it('accepts IANA zones and refuses others with a message', () => {
    for (const ok of ['Europe/Stockholm', 'America/Argentina/Buenos_Aires', 'UTC', 'Asia/Kolkata']) expect(timeZoneSchema.parse(ok)).toBe(ok);
    for (const bad of ['', 'Stockholm', 'Europe/Atlantis', 'CET+1', 'GMT+2', '../etc']) {
      const result = timeZoneSchema.safeParse(bad);
      expect(result.success).toBe(false);
    }
    expect(issueText(timeZoneSchema.safeParse('Mars/Olympus').error!.issues[0]!)).toMatch(/IANA time zone/);
    expect(issueText(timeZoneSchema.safeParse('Mars/Olympus').error!.issues[0]!, 'sv')).toMatch(/IANA-tidszon/);
  });

  it('refuses approval ids that could change an upstream path', () => {
    expect(approvalIdSchema.parse('  1B4E28BA-2fa1-11d2-883f-0016d3cca427 ')).toBe('1B4E28BA-2fa1-11d2-883f-0016d3cca427');
    for (const bad of ['not-a-uuid', 'a/b', 'a?b', 'a b', '%2e%2e', '1b4e28ba-2fa1-11d2-883f-0016d3cca42', '1b4e28ba/2fa1-11d2-883f-0016d3cca427']) {
      expect(approvalIdSchema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('needs something to change and nothing unknown', () => {
    expect(systemUpdateSchema.safeParse({}).success).toBe(false);
    expect(systemUpdateSchema.safeParse({ status: 'active' }).success).toBe(false);
    expect(systemUpdateSchema.parse({ name: ' Hus A ' })).toEqual({ name: 'Hus A' });
  });

  it('takes a street, city and area trimmed; empty clears one; too long or with control characters is refused', () => {
    expect(systemUpdateSchema.parse({ street: ' Storgatan 1 ', city: 'Uppsala', area: '' })).toEqual({ street: 'Storgatan 1', city: 'Uppsala', area: null });
    expect(systemUpdateSchema.safeParse({ city: 'x'.repeat(121) }).success).toBe(false);
    expect(systemUpdateSchema.safeParse({ area: 'Norr\u0000' }).success).toBe(false);
  });
});

it('refuses control characters in a system name (PostgreSQL would answer a NUL with a 500)', () => {
  const parsed = systemUpdateSchema.safeParse({ name: 'Brf\u0000Eken' });
  expect(parsed.success).toBe(false);
  expect(issueText(parsed.error!.issues[0]!)).toMatch(/must not contain control characters/);
  expect(systemUpdateSchema.safeParse({ name: 'Brf\tEken' }).success).toBe(false);
  expect(systemUpdateSchema.safeParse({ name: 'Brf Ekens Tvättstuga' }).success).toBe(true);
});

it('takes whole numbers in digits only: 0x10 and 1e1 are refused with the field\'s sentence (issue 47)', () => {
  expect(systemUpdateSchema.parse({ bookingQuota: '3', bookingHorizonDays: 14 })).toEqual({ bookingQuota: 3, bookingHorizonDays: 14 });
  for (const bad of ['0x10', '0X3', '1e1', '0b11', '0o7', '+3', ' ', true, null, [3]]) {
    const quota = systemUpdateSchema.safeParse({ bookingQuota: bad });
    expect(quota.success, `bookingQuota ${JSON.stringify(bad)}`).toBe(false);
    expect(issueText(quota.error!.issues[0]!)).toMatch(/bookings/i);
    expect(systemUpdateSchema.safeParse({ bookingHorizonDays: bad }).success, `bookingHorizonDays ${JSON.stringify(bad)}`).toBe(false);
    expect(requestBudgetSchema.safeParse(bad).success, `budget ${JSON.stringify(bad)}`).toBe(false);
  }
  expect(requestBudgetSchema.parse('')).toBeNull();
  expect(requestBudgetSchema.parse('1200')).toBe(1200);
});
