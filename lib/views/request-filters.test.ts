import { describe, expect, it } from 'vitest';
import { isApiError } from '@/lib/errors/api-error';
import { apiErrorText } from '@/tests/message-text';
import { requestsSearch } from '@/lib/client/request-filters';
import { dayRange, formatCursor, parseRequestsQuery } from './request-filters';

const DEVICE = '0B6C9A52-4F1E-4C7A-9E55-0C1D2E3F4A5B';
const RESIDENT = '11111111-2222-4333-8444-555555555555';
const CURSOR = `2026-11-23T17:02:03.123456Z_${RESIDENT}`;

const parse = (search: string) => parseRequestsQuery(new URLSearchParams(search));

function refusal(search: string): string {
  try {
    parse(search);
  } catch (error) {
    if (isApiError(error) && error.code === 'bad_request') return apiErrorText(error);
    throw error;
  }
  throw new Error(`"${search}" was accepted`);
}

describe('parseRequestsQuery', () => {
  it('reads every filter, lower-cases ids, trims, and treats empty values as "any"', () => {
    expect(parse(`deviceId=${DEVICE}&status=failed&resident=${RESIDENT}&from=2026-11-01&to=2026-11-30&q=%20Berg%20&limit=20`)).toEqual({
      filters: { deviceId: DEVICE.toLowerCase(), status: 'failed', resident: RESIDENT, from: '2026-11-01', to: '2026-11-30', q: 'Berg' },
      limit: 20,
    });
    expect(parse('deviceId=&status=&q=%20%20&from=')).toEqual({ filters: {}, limit: 50 });
  });

  it('reads page markers, and writes back what it read', () => {
    const query = parse(`before=${encodeURIComponent(CURSOR)}`);
    expect(query.before).toEqual({ at: '2026-11-23T17:02:03.123456Z', id: RESIDENT });
    expect(query.before && formatCursor(query.before)).toBe(CURSOR);
    expect(parse(`after=${encodeURIComponent(CURSOR)}`).after?.at).toBe('2026-11-23T17:02:03.123456Z');
  });

  it('refuses each malformed value with a sentence saying what is wrong', () => {
    expect(refusal('status=done')).toBe('The status "done" is not one of pending, unknown, booked, cancelled, failed.');
    expect(apiErrorText((() => { try { parse('from=2026-11-30&to=2026-11-01'); } catch (e) { return e; } })(), 'sv')).toBe('Datumet "from" får inte vara efter datumet "to".');
    expect(refusal('deviceId=not-a-uuid')).toBe('The system (deviceId) must be a system id (a UUID).');
    expect(refusal('resident=42')).toBe("The resident must be a resident's user id (a UUID).");
    expect(refusal('from=2026-02-30')).toBe('The "from" date must be a real day written as YYYY-MM-DD, such as 2026-11-23.');
    expect(refusal('to=23.11.2026')).toMatch(/^The "to" date must be a real day/);
    expect(refusal('from=2026-11-30&to=2026-11-01')).toBe('The "from" date must not be after the "to" date.');
    expect(refusal(`q=${'x'.repeat(101)}`)).toBe('The search may be at most 100 characters.');
    expect(refusal('q=a%00b')).toMatch(/control characters/);
    expect(refusal('status=failed&status=booked')).toBe('Give "status" once, not 2 times.');
    expect(refusal('before=2026-11-23T17:02:03Z_x')).toMatch(/^The before page marker is not one the portal made/);
    expect(refusal(`before=${encodeURIComponent(CURSOR)}&after=${encodeURIComponent(CURSOR)}`)).toBe('Give "before" or "after", not both.');
    for (const limit of ['0', '201', '1.5', 'ten', '-3']) expect(refusal(`limit=${limit}`)).toMatch(/^The page size \(limit\) must be a whole number from 1 to 200/);
  });

  it('makes URLs the parser reads back to the same filters', () => {
    const filters = { deviceId: DEVICE.toLowerCase(), status: 'booked' as const, q: 'anna & co', from: '2026-11-01' };
    const search = requestsSearch(filters, { before: CURSOR });
    expect(search).toBe(`?deviceId=${DEVICE.toLowerCase()}&status=booked&from=2026-11-01&q=anna+%26+co&before=${encodeURIComponent(CURSOR)}`);
    expect(parse(search.slice(1)).filters).toEqual(filters);
    expect(requestsSearch({})).toBe('');
  });
});

describe('dayRange', () => {
  it('turns inclusive days into instants at the zone\'s midnights, across a DST change', () => {
    // Europe/Stockholm leaves summer time on 2026-10-25.
    expect(dayRange({ from: '2026-10-25', to: '2026-10-25' }, 'Europe/Stockholm')).toEqual({
      since: new Date('2026-10-24T22:00:00Z'),
      until: new Date('2026-10-25T23:00:00Z'),
    });
    expect(dayRange({ to: '2026-12-31' }, 'UTC')).toEqual({ until: new Date('2027-01-01T00:00:00Z') });
    expect(dayRange({}, 'UTC')).toEqual({});
  });
});
