import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_PATTERN } from '@/lib/reservations/schemas';
import { HttpError } from './fetch-json';
import { IntentKeys, newIdempotencyKey, wasAnswered } from './idempotency';

function counter() {
  let n = 0;
  return () => `key-${++n}`;
}

describe('IntentKeys', () => {
  it('gives one key to an intent until the portal answers it', () => {
    const keys = new IntentKeys(counter());
    expect(keys.keyFor('book A')).toBe('key-1');
    expect(keys.keyFor('book A')).toBe('key-1');
    // No answer (unreachable) or one that was not the portal's: the retry reuses the key.
    keys.settled('book A', new HttpError(0, 'unreachable'));
    expect(keys.keyFor('book A')).toBe('key-1');
    keys.settled('book A', new HttpError(502, 'The portal answered 502.'));
    expect(keys.keyFor('book A')).toBe('key-1');
    // The portal's own error ends the attempt: trying again is a new attempt.
    keys.settled('book A', new HttpError(409, 'already booked', 'conflict'));
    expect(keys.keyFor('book A')).toBe('key-2');
    // Success ends it too.
    keys.settled('book A', null);
    expect(keys.keyFor('book A')).toBe('key-3');
  });

  it('never shares a key between intents', () => {
    const keys = new IntentKeys(counter());
    expect(keys.keyFor('book A for r1')).toBe('key-1');
    keys.settled('book A for r1', new HttpError(0, 'unreachable'));
    expect(keys.keyFor('book A for r2')).toBe('key-2');
    // Settling an intent that is no longer the open one changes nothing.
    keys.settled('book A for r1', null);
    expect(keys.keyFor('book A for r2')).toBe('key-2');
  });

  it('makes keys the portal accepts', () => {
    const key = newIdempotencyKey();
    expect(key).toMatch(IDEMPOTENCY_KEY_PATTERN);
    expect(new IntentKeys().keyFor('x')).not.toBe(new IntentKeys().keyFor('x'));
  });
});

describe('wasAnswered', () => {
  it('is true for success and the portal’s own errors only', () => {
    expect(wasAnswered(null)).toBe(true);
    expect(wasAnswered(new HttpError(422, 'no', 'unprocessable_entity'))).toBe(true);
    expect(wasAnswered(new HttpError(0, 'unreachable'))).toBe(false);
    expect(wasAnswered(new TypeError('boom'))).toBe(false);
  });
});
