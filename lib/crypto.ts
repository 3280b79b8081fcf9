import 'server-only';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// Format: v1.<iv>.<tag>.<ciphertext>, base64url parts. The version leaves room for key rotation.
const VERSION = 'v1';

/**
 * AES-256-GCM. `context` is bound as additional authenticated data, so a ciphertext copied to
 * another row (another context) fails to decrypt instead of yielding someone else's key.
 */
export function encryptSecret(plaintext: string, key: Buffer, context: string): string {
  if (key.length !== 32) throw new Error('encryption key must be 32 bytes');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

export function decryptSecret(payload: string, key: Buffer, context: string): string {
  const [version, iv, tag, ciphertext] = payload.split('.');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error('unrecognised ciphertext format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

/** Hex SHA-256, for fingerprints of values we must recognise but not keep. */
export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** A secret for an address (a calendar feed's, a display's): 32 random bytes, base64url, 43 characters. */
export const URL_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new address token and the SHA-256 the database keeps (a fast hash suffices for 256 random bits). */
export function issueUrlToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: sha256(token) };
}
