import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { handleApiError } from '@/lib/errors/api-error';
import { BOOKING_NOTE_MAX } from './types';
import { bookingInputSchema } from './schemas';

const base = { deviceId: randomUUID(), resourceId: randomUUID(), residentUserId: randomUUID(), startTime: '2026-11-26T06:00Z', endTime: '2026-11-26T09:00Z' };

describe('bookingInputSchema: the booking note', () => {
  it('is optional, trimmed, and blank means none', () => {
    expect(bookingInputSchema.parse(base).note ?? null).toBeNull();
    expect(bookingInputSchema.parse({ ...base, note: null }).note ?? null).toBeNull();
    expect(bookingInputSchema.parse({ ...base, note: '   ' }).note).toBeNull();
    expect(bookingInputSchema.parse({ ...base, note: '  Asked at the door, has no app ' }).note).toBe('Asked at the door, has no app');
    expect(bookingInputSchema.parse({ ...base, note: `${'x'.repeat(BOOKING_NOTE_MAX)}  ` }).note).toHaveLength(BOOKING_NOTE_MAX);
  });

  it('refuses a note too long, with control characters, or not text, in a sentence naming it', async () => {
    const refusal = async (note: unknown) => {
      const parsed = bookingInputSchema.safeParse({ ...base, note });
      expect(parsed.success).toBe(false);
      const answer = await handleApiError(parsed.error);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      return ((await answer.json()) as { error: { message: string } }).error.message;
    };
    expect(await refusal('x'.repeat(BOOKING_NOTE_MAX + 1))).toMatch(/note: must be at most 500 characters/);
    expect(await refusal('first line\nsecond')).toMatch(/note: must not contain control characters/);
    expect(await refusal('nul\u0000')).toMatch(/note: must not contain control characters/);
    expect(await refusal(42)).toMatch(/note: must be text/);
    const sv = await handleApiError(bookingInputSchema.safeParse({ ...base, note: 'x'.repeat(BOOKING_NOTE_MAX + 1) }).error, 'sv');
    expect(((await sv.json()) as { error: { message: string } }).error.message).toBe('Ogiltiga uppgifter: note: får vara högst 500 tecken');
  });
});
