import { describe, expect, it } from 'vitest';
import {
  CreateReservationInputSchema,
  ReservationResultEventSchema,
  ReservationSchema,
  TimeScheduleSchema,
  WebhookEventSchema,
  toMinuteTime,
  ApiKeySchema,
  salvageAccepted,
} from './schemas';
import { parseRetryAfter } from './transport';

const envelope = {
  correlationId: '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60',
  eventType: 'reservationResult',
  timestamp: '2026-11-22T10:00:00Z',
};

describe('webhook events', () => {
  it('accepts the upstream spelling succeded, and succeeded too, as `succeeded`', () => {
    const upstream = ReservationResultEventSchema.parse({
      ...envelope,
      eventData: { succeded: true, errorCode: null, errorDescription: null, data: { reservationId: envelope.correlationId, operation: 'create' } },
    });
    expect(upstream.eventData).toEqual({
      succeeded: true,
      errorCode: null,
      errorDescription: null,
      data: { reservationId: envelope.correlationId, operation: 'create' },
    });
    const corrected = ReservationResultEventSchema.parse({ ...envelope, eventData: { succeeded: false, errorCode: 'QuotaExceeded', errorDescription: 'Two bookings already.' } });
    expect(corrected.eventData).toMatchObject({ succeeded: false, errorCode: 'QuotaExceeded', data: null });
  });

  it('rejects a result without the flag, or with both spellings disagreeing', () => {
    const none = ReservationResultEventSchema.safeParse({ ...envelope, eventData: { errorCode: null } });
    expect(none.success).toBe(false);
    expect(none.error?.issues[0]?.path).toEqual(['eventData', 'succeded']);
    expect(ReservationResultEventSchema.safeParse({ ...envelope, eventData: { succeded: true, succeeded: false } }).success).toBe(false);
  });

  it('keeps other event types as envelopes, but never lets a bad reservationResult pass as one', () => {
    const other = WebhookEventSchema.parse({ ...envelope, eventType: 'somethingElse', eventData: { x: 1 } });
    expect(other.eventType).toBe('somethingElse');
    expect(WebhookEventSchema.safeParse({ ...envelope, eventData: { nope: true } }).success).toBe(false);
    expect(WebhookEventSchema.safeParse({ ...envelope, correlationId: 'x', eventData: { succeded: true } }).success).toBe(false);
  });
});

describe('resource shapes', () => {
  const reservation = {
    id: '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60',
    userId: null,
    ownerId: null,
    ownerType: 'Service',
    status: 'Unused',
    resourceId: '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f61',
    startTime: '2026-11-23T07:00:00Z',
    endTime: '2026-11-23T10:00:00.000Z',
    deviceId: '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f62',
  };

  it('accepts a maintenance window without user, refuses local times and keeps unknown states as Unknown', () => {
    const instant = (t: string) => new Date(t).toISOString();
    const parsed = ReservationSchema.parse({ ...reservation, extra: 'dropped' });
    expect(parsed).toEqual({ ...reservation, startTime: instant(reservation.startTime), endTime: instant(reservation.endTime) });
    expect(ReservationSchema.safeParse({ ...reservation, startTime: '2026-11-23T07:00:00' }).success).toBe(false);
    expect(ReservationSchema.parse({ ...reservation, status: 'Gone' }).status).toBe('Unknown');
  });

  it('checks a Week schedule: seven days of [start, length] within a day', () => {
    const week = Array.from({ length: 7 }, () => [[420, 180], [1320, 180]]);
    const schedule = { id: reservation.id, deviceId: reservation.deviceId, scheduleType: 'Week', schedule: week };
    expect(TimeScheduleSchema.parse(schedule).schedule[0]).toEqual([[420, 180], [1320, 180]]);
    // A short week reads as empty further days; more than seven is not a week.
    expect(TimeScheduleSchema.parse({ ...schedule, schedule: week.slice(1) }).schedule[6]).toEqual([]);
    expect(TimeScheduleSchema.safeParse({ ...schedule, schedule: [...week, []] }).success).toBe(false);
    expect(TimeScheduleSchema.safeParse({ ...schedule, schedule: [[[1440, 60]], ...week.slice(1)] }).success).toBe(false);
    expect(TimeScheduleSchema.safeParse({ ...schedule, scheduleType: 'Month' }).success).toBe(false);
  });
});

describe('create input', () => {
  const ids = { userId: '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60', resourceId: '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f61' };

  it('sends times as yyyy-mm-ddThh:mmZ, from strings or whole-minute Dates', () => {
    const body = CreateReservationInputSchema.parse({ ...ids, startTime: new Date('2026-11-23T22:00:00Z'), endTime: '2026-11-24T01:00Z' });
    expect(body).toEqual({ ...ids, startTime: '2026-11-23T22:00Z', endTime: '2026-11-24T01:00Z' });
    expect(toMinuteTime(new Date(Date.UTC(2026, 0, 5, 7, 30)))).toBe('2026-01-05T07:30Z');
  });

  it('refuses seconds, bad forms and an end before the start, naming the field', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ startTime: new Date('2026-11-23T22:00:30Z'), endTime: '2026-11-24T01:00Z' }, 'startTime'],
      [{ startTime: '2026-11-23T22:00Z', endTime: '2026-11-24 01:00' }, 'endTime'],
      [{ startTime: '2026-11-23T22:00Z', endTime: '2026-11-23T21:00Z' }, 'endTime'],
      [{ startTime: '2026-11-23T22:00Z', endTime: '2026-11-24T01:00Z', userId: 'nope' }, 'userId'],
    ];
    for (const [input, field] of cases) {
      const result = CreateReservationInputSchema.safeParse({ ...ids, ...input });
      expect(result.success, field).toBe(false);
      expect(result.error?.issues[0]?.path[0]).toBe(field);
    }
  });
});

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP dates, and ignores nonsense', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('1', now)).toBe(1);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:05 GMT', now)).toBe(5);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('salvageAccepted', () => {
  const id = '6f1c2a3b-4d5e-0f70-0a1b-2c3d4e5f6a7b';
  it('reads the correlation id of a cut-off 202 body', () => {
    expect(salvageAccepted(`{"correlationId":"${id}","timestamp":`)).toEqual({ correlationId: id, timestamp: null });
    expect(salvageAccepted(`{ "correlationId" : "${id.toUpperCase()}"`)).toEqual({ correlationId: id, timestamp: null });
  });
  it('reads nothing from a body that names no id, or two', () => {
    expect(salvageAccepted('<html>Accepted</html>')).toBeUndefined();
    expect(salvageAccepted(`{"correlationId":"${id}"},{"correlationId":"${id.replace('6f', '7f')}"}`)).toBeUndefined();
  });
});

describe('ApiKeySchema', () => {
  const device = '6F1C2A3B-4D5E-0F70-0A1B-2C3D4E5F6A7B';
  it('reads the documented shape and the shapes a service may send instead', () => {
    expect(ApiKeySchema.parse({ apiKey: 'k1', deviceIds: [device] })).toEqual({ apiKey: 'k1', deviceIds: [device.toLowerCase()] });
    expect(ApiKeySchema.parse('k2')).toEqual({ apiKey: 'k2', deviceIds: [] });
    expect(ApiKeySchema.parse({ key: 'k3', deviceId: device, extra: 1 })).toEqual({ apiKey: 'k3', deviceIds: [device.toLowerCase()] });
    expect(ApiKeySchema.parse({ ApiKey: 'k4', DeviceIds: [device, 'not-a-guid', null] })).toEqual({ apiKey: 'k4', deviceIds: [device.toLowerCase()] });
  });
  it('refuses an answer without a key', () => {
    expect(ApiKeySchema.safeParse({ deviceIds: [device] }).success).toBe(false);
    expect(ApiKeySchema.safeParse({ apiKey: '  ' }).success).toBe(false);
  });
});
