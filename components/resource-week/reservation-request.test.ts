import { afterEach, describe, expect, it, vi } from 'vitest';
import { isHttpError } from '@/lib/client/fetch-json';
import { intentName, type ReservationIntent, sendReservationIntent } from './reservation-request';

const book: ReservationIntent = {
  kind: 'book',
  deviceId: 'd-1',
  resourceId: 'r-1',
  residentUserId: 'u-1',
  startTime: '2026-11-26T06:00Z',
  endTime: '2026-11-26T09:00Z',
};
const cancel: ReservationIntent = { kind: 'cancel', deviceId: 'd-1', reservationId: 'res-1' };

function answering(body: unknown, status = 202) {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return Promise.resolve(Response.json(body, { status }));
  });
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('sendReservationIntent', () => {
  it('sends a booking note trimmed, and leaves a blank one out', async () => {
    const calls = answering({ request: { id: 'q-1' } });
    await sendReservationIntent({ ...book, note: '  Asked at the door  ' }, 'key-1');
    await sendReservationIntent({ ...book, note: '   ' }, 'key-2');
    expect(JSON.parse(calls[0]!.init.body as string)).toMatchObject({ note: 'Asked at the door' });
    expect(JSON.parse(calls[1]!.init.body as string)).not.toHaveProperty('note');
  });

  it('books with POST /api/reservations, the body the route expects and the given key', async () => {
    const calls = answering({ request: { id: 'q-1' } });
    expect(await sendReservationIntent(book, 'key-1')).toEqual({ id: 'q-1' });
    expect(calls[0]!.url).toBe('/api/reservations');
    expect(calls[0]!.init.method).toBe('POST');
    expect((calls[0]!.init.headers as Record<string, string>)['Idempotency-Key']).toBe('key-1');
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({
      deviceId: 'd-1',
      resourceId: 'r-1',
      residentUserId: 'u-1',
      startTime: '2026-11-26T06:00Z',
      endTime: '2026-11-26T09:00Z',
    });
  });

  it('cancels with DELETE /api/reservations/{id}?deviceId=', async () => {
    const calls = answering({ request: { id: 'q-2' } });
    await sendReservationIntent(cancel, 'key-2');
    expect(calls[0]!.url).toBe('/api/reservations/res-1?deviceId=d-1');
    expect(calls[0]!.init.method).toBe('DELETE');
    expect((calls[0]!.init.headers as Record<string, string>)['Idempotency-Key']).toBe('key-2');
  });

  it('treats a 2xx without the request as no answer (the key is kept for the retry)', async () => {
    answering({});
    const error: unknown = await sendReservationIntent(book, 'k').catch((e: unknown) => e);
    expect(isHttpError(error) && error.code).toBeNull();
  });
});

describe('intentName', () => {
  it('differs when the resident, the slot or the kind differs', () => {
    const names = new Set([
      intentName(book),
      intentName({ ...book, residentUserId: 'u-2' }),
      intentName({ ...book, startTime: '2026-11-26T09:00Z', endTime: '2026-11-26T12:00Z' }),
      intentName(cancel),
    ]);
    expect(names.size).toBe(4);
    expect(intentName({ ...book })).toBe(intentName(book));
  });
});
