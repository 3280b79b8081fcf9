import { describe, expect, it } from 'vitest';
import { AcceptedSchema, ApiKeySchema, normaliseDateTime, parseItems, ReservationResultEventSchema, ReservationSchema, ResourceSchema, salvageAccepted, TimeScheduleSchema, UserAccountSchema, UserGroupSchema } from './schemas';
import { craftedClient } from '@/tests/crafted-service';

const DEVICE = '6a1d1f7e-3b1c-4c2d-9e8f-0a1b2c3d4e5f';
const RES = '7b2e2a8f-4c2d-4d3e-8f90-1b2c3d4e5f60';

describe('normaliseDateTime', () => {
  it.each([
    ['2026-11-24T07:00Z', '2026-11-24T07:00:00.000Z'],
    ['2026-11-24T07:00:00Z', '2026-11-24T07:00:00.000Z'],
    ['2026-11-24T07:00:05.1Z', '2026-11-24T07:00:05.100Z'],
    ['2026-11-24T07:00:05.1234567Z', '2026-11-24T07:00:05.123Z'],
    ['2026-11-24T08:00+01:00', '2026-11-24T07:00:00.000Z'],
    ['2026-11-24T08:00:00.000+0100', '2026-11-24T07:00:00.000Z'],
    ['2026-11-24T01:30:00-05:30', '2026-11-24T07:00:00.000Z'],
    ['2026-11-24t07:00:00z', '2026-11-24T07:00:00.000Z'],
    ['2026-01-01T00:30+01:00', '2025-12-31T23:30:00.000Z'],
  ])('reads %s as %s', (input, expected) => {
    expect(normaliseDateTime(input)).toBe(expected);
  });

  it.each([
    '2026-11-24T07:00',
    '2026-11-24T07:00:00',
    '2026-11-24T07:00:00.000',
    '2026-11-24',
    '2026-02-30T07:00Z',
    '2026-11-24T24:00Z',
    '2026-11-24T07:00:00.12345678Z',
    'yesterday',
    '',
  ])('refuses %j', (input) => {
    expect(normaliseDateTime(input)).toBeNull();
  });
});

describe('ids in any spelling (issue 47)', () => {
  const ID = '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60';
  const spellings = [ID.toUpperCase(), '3F1c2A9e-8B7d-4C6e-9F0a-1B2c3D4e5F60', `{${ID}}`, `{${ID.toUpperCase()}}`, ` ${ID} `];

  it.each(spellings)('reads %j as the canonical id wherever the service sends one', (spelled) => {
    const reservation = { id: spelled, userId: spelled, ownerId: spelled, ownerType: 'User', status: 'Unused', resourceId: spelled, startTime: '2026-11-24T07:00Z', endTime: '2026-11-24T10:00Z', deviceId: spelled };
    expect(ReservationSchema.parse(reservation)).toMatchObject({ id: ID, userId: ID, ownerId: ID, resourceId: ID, deviceId: ID });
    expect(ResourceSchema.parse({ id: spelled, name: 'Tvättstuga 1', deviceId: spelled, timeScheduleId: spelled })).toMatchObject({ id: ID, deviceId: ID, timeScheduleId: ID });
    expect(TimeScheduleSchema.parse({ id: spelled, deviceId: spelled, scheduleType: 'Week', schedule: [] }).id).toBe(ID);
    expect(UserGroupSchema.parse({ id: spelled, deviceId: spelled }).id).toBe(ID);
    expect(UserAccountSchema.parse({ deviceId: spelled, userId: spelled, userGroupId: spelled, reservationResources: [spelled, 'nope'] })).toMatchObject({ deviceId: ID, userId: ID, userGroupId: ID, reservationResources: [ID] });
    expect(AcceptedSchema.parse({ correlationId: spelled }).correlationId).toBe(ID);
    expect(ApiKeySchema.parse({ apiKey: 'k', deviceIds: [spelled] }).deviceIds).toEqual([ID]);
    const event = ReservationResultEventSchema.parse({ correlationId: spelled, eventType: 'reservationResult', timestamp: '2026-11-24T07:00:00Z', eventData: { succeded: true, data: { reservationId: spelled, operation: 'create' } } });
    expect([event.correlationId, event.eventData.data?.reservationId]).toEqual([ID, ID]);
  });

  it('salvages a cut-off 202 whose correlation id is in braces or upper case', () => {
    expect(salvageAccepted(`{"correlationId":"{${ID.toUpperCase()}}","timestamp":`)).toEqual({ correlationId: ID, timestamp: null });
  });

  it('refuses what is not a GUID in any spelling, and keeps a timeScheduleId that is not one as sent (trimmed)', () => {
    for (const bad of [`{${ID}`, `${ID}}`, `{{${ID}}}`, `(${ID})`, ID.replace(/-/g, ''), 'x']) {
      expect(ReservationSchema.safeParse({ id: bad, ownerType: 'User', status: 'Unused', resourceId: ID, startTime: '2026-11-24T07:00Z', endTime: '2026-11-24T10:00Z', deviceId: ID }).success, bad).toBe(false);
    }
    expect(ResourceSchema.parse({ id: ID, deviceId: ID, timeScheduleId: ' Week-A ' }).timeScheduleId).toBe('Week-A');
    expect(ResourceSchema.parse({ id: ID, deviceId: ID }).timeScheduleId).toBe('');
    expect(UserAccountSchema.parse({ deviceId: ID, userId: ID, userGroupId: `{${ID}` }).userGroupId).toBeNull();
  });
});

describe('tolerant item schemas', () => {
  const reservation = {
    id: '0b1c2d3e-0000-4000-8000-000000000001',
    userId: null,
    ownerId: null,
    ownerType: 'User',
    status: 'Unused',
    resourceId: RES,
    startTime: '2026-11-24T07:00Z',
    endTime: '2026-11-24T11:00+01:00',
    deviceId: DEVICE,
  };

  it('keeps unknown enum values as Unknown, reads enums case-insensitively and ignores extra fields', () => {
    expect(ReservationSchema.parse({ ...reservation, ownerType: 'Facility', status: 'Released', extra: { a: 1 } })).toEqual({
      ...reservation,
      ownerType: 'Unknown',
      status: 'Unknown',
      startTime: '2026-11-24T07:00:00.000Z',
      endTime: '2026-11-24T10:00:00.000Z',
    });
    expect(ReservationSchema.parse({ ...reservation, ownerType: 'group', status: 'USED' })).toMatchObject({ ownerType: 'Group', status: 'Used' });
    expect(ReservationSchema.parse({ ...reservation, userId: '', ownerId: 'nope' })).toMatchObject({ userId: null, ownerId: null });
  });

  it('normalises display fields to empty strings', () => {
    expect(ResourceSchema.parse({ id: RES, deviceId: DEVICE, name: null, timeScheduleId: null })).toEqual({
      id: RES,
      deviceId: DEVICE,
      name: '',
      description: '',
      timeScheduleId: '',
    });
    expect(UserGroupSchema.parse({ id: RES, deviceId: DEVICE, name: 'A', apartmentId: 1203 })).toEqual({
      id: RES,
      deviceId: DEVICE,
      name: 'A',
      apartmentId: '1203',
      referenceId: '',
    });
    expect(UserAccountSchema.parse({ deviceId: DEVICE, userId: RES, userGroupId: '', reservationResources: [RES, 'x', null] })).toEqual({
      deviceId: DEVICE,
      userId: RES,
      name: '',
      email: '',
      userGroupId: null,
      reservationResources: [RES],
    });
  });

  it('skips schedules of another type, pads short weeks, and names why an item was skipped', () => {
    const schedule = { id: RES, deviceId: DEVICE, scheduleType: 'Week', schedule: [[[420, 180]]] };
    const { items, skipped } = parseItems(TimeScheduleSchema, [
      schedule,
      { ...schedule, id: '1b2e2a8f-4c2d-4d3e-8f90-1b2c3d4e5f60', scheduleType: 'Month' },
      { ...schedule, id: 'not-a-guid' },
      42,
    ]);
    expect(items).toEqual([{ ...schedule, schedule: [[[420, 180]], [], [], [], [], [], []] }]);
    expect(skipped).toEqual([
      { id: '1b2e2a8f-4c2d-4d3e-8f90-1b2c3d4e5f60', reason: expect.stringContaining('"Month" is not supported') as string },
      { id: 'not-a-guid', reason: expect.stringContaining('id:') as string },
      { id: null, reason: expect.any(String) as string },
    ]);
  });

  it('skips a reservation without an offset, or ending before it starts', () => {
    const { items, skipped } = parseItems(ReservationSchema, [
      { ...reservation, startTime: '2026-11-24T07:00:00' },
      { ...reservation, endTime: '2026-11-24T06:00Z' },
      reservation,
    ]);
    expect(items).toHaveLength(1);
    expect(skipped.map((s) => s.reason)).toEqual([expect.stringContaining('startTime'), expect.stringContaining('endTime')]);
  });
});

function clientOf(bodies: Record<string, unknown>, onSkipped?: (op: string, n: number) => void) {
  return craftedClient(bodies, { onSkipped: (op, skipped) => onSkipped?.(op, skipped.length) });
}

describe('tolerant client', () => {
  it('ends a list at an empty continuation token, reads missing arrays as empty and fills a missing deviceId', async () => {
    const client = clientOf({
      [`/v1/reservations/resources/${DEVICE}/all`]: { resources: [{ id: RES, name: 'Room', description: null }], continuationToken: 'p2' },
      [`/v1/reservations/resources/${DEVICE}/all?p2`]: { continuationToken: '' },
    });
    expect(await client.resources.list('key', DEVICE).toArray({ limit: 10 })).toEqual([
      { id: RES, name: 'Room', description: '', deviceId: DEVICE, timeScheduleId: '' },
    ]);
  });

  it('drops unusable users of a lookup and unusable reservations of a user, and says how many', async () => {
    const counts: [string, number][] = [];
    const client = clientOf(
      {
        '/v1/reservations/users/apartment/1203': {
          userAccounts: [
            { deviceId: DEVICE, userId: RES, name: null, email: 'a@example.com', userGroupId: null, unknown: true },
            { deviceId: DEVICE, userId: 'broken', email: 'b@example.com' },
          ],
        },
        [`/v1/reservations/users/${RES}/reservations`]: [
          { id: RES, ownerType: 'User', status: 'Used', resourceId: RES, startTime: '2026-11-24T07:00Z', endTime: '2026-11-24T10:00Z', deviceId: DEVICE },
          { id: RES, resourceId: RES, startTime: 'soon', endTime: '2026-11-24T10:00Z', deviceId: DEVICE },
        ],
      },
      (op, n) => counts.push([op, n]),
    );
    expect(await client.users.byApartment('key', '1203')).toEqual([
      { deviceId: DEVICE, userId: RES, name: '', email: 'a@example.com', userGroupId: null, reservationResources: undefined },
    ]);
    const mine = await client.reservations.forUser('key', RES);
    expect(mine).toMatchObject([{ id: RES, userId: null, ownerType: 'User', startTime: '2026-11-24T07:00:00.000Z' }]);
    expect(counts).toEqual([
      ['GET /v1/reservations/users/apartment/{apartmentId}', 1],
      ['GET /v1/reservations/users/{userId}/reservations', 1],
    ]);
  });
});
