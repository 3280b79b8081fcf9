import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret } from './crypto';

const key = randomBytes(32);

describe('encryptSecret / decryptSecret', () => {
  it('round-trips, and the ciphertext neither contains the secret nor repeats', () => {
    const a = encryptSecret('sk_live_abcdef123456', key, 'connection:1');
    const b = encryptSecret('sk_live_abcdef123456', key, 'connection:1');
    expect(a).not.toContain('sk_live');
    expect(a).not.toBe(b);
    expect(decryptSecret(a, key, 'connection:1')).toBe('sk_live_abcdef123456');
  });

  it('refuses another context, another key and a tampered ciphertext', () => {
    const sealed = encryptSecret('secret-key', key, 'connection:1');
    expect(() => decryptSecret(sealed, key, 'connection:2')).toThrow();
    expect(() => decryptSecret(sealed, randomBytes(32), 'connection:1')).toThrow();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    parts[3] = body.toString('base64url');
    expect(() => decryptSecret(parts.join('.'), key, 'connection:1')).toThrow();
  });

  it('refuses a key of the wrong size', () => {
    expect(() => encryptSecret('x', randomBytes(16), 'c')).toThrow(/32 bytes/);
  });
});
