import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { feedTokenHash, feedUrl, isFeedToken, issueFeedToken, tokenOfFeedFile } from './token';

describe('feed tokens', () => {
  it('are 32 random bytes in base64url, and the hash is their SHA-256, not the token', () => {
    const { token, hash } = issueFeedToken();
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(hash).not.toContain(token);
    expect(feedTokenHash(token)).toBe(hash);
    expect(isFeedToken(token)).toBe(true);
  });

  it('differ every time', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => issueFeedToken().token));
    expect(tokens.size).toBe(200);
  });

  it('are read from the file name only when it is exactly {token}.ics', () => {
    const { token } = issueFeedToken();
    expect(tokenOfFeedFile(`${token}.ics`)).toBe(token);
    for (const bad of [token, `${token}.ICS`, `${token}.ics.ics`, `${token.slice(1)}.ics`, `${token}x.ics`, `../${token}.ics`, "' OR 1=1.ics", '.ics', '']) {
      expect(tokenOfFeedFile(bad)).toBeNull();
    }
  });

  it('make an address under /feeds/', () => {
    const { token } = issueFeedToken();
    expect(feedUrl('https://portal.example/', token)).toBe(`https://portal.example/feeds/${token}.ics`);
    expect(feedUrl('http://localhost:3000', token)).toBe(`http://localhost:3000/feeds/${token}.ics`);
  });
});
