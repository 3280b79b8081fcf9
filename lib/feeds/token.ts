import 'server-only';
import { issueUrlToken, sha256, URL_TOKEN_PATTERN } from '@/lib/crypto';

/** 32 random bytes: 256 bits, beyond any guessing; base64url without padding is 43 characters. */
export const FEED_TOKEN_BYTES = 32;
/** The feed's file name at /feeds/{token}.ics. */
const FILE_PATTERN = /^([A-Za-z0-9_-]{43})\.ics$/;

export interface IssuedToken {
  /** Shown to the creator once, inside the feed's address; never stored, never logged. */
  token: string;
  /** What the database keeps and looks the feed up by. */
  hash: string;
}

export function issueFeedToken(): IssuedToken {
  return issueUrlToken();
}

/** Hex SHA-256 of the token: a fast hash is enough for 256 random bits (nothing to brute-force). */
export function feedTokenHash(token: string): string {
  return sha256(token);
}

export function isFeedToken(value: string): boolean {
  return URL_TOKEN_PATTERN.test(value);
}

/** The token in a feed's file name ("{token}.ics"), or null for anything else (answered 404, like an unknown one). */
export function tokenOfFeedFile(file: string): string | null {
  return FILE_PATTERN.exec(file)?.[1] ?? null;
}

/** The feed's public address: the portal's URL, /feeds/, the token, .ics. */
export function feedUrl(portalUrl: string, token: string): string {
  return new URL(`/feeds/${token}.ics`, portalUrl).toString();
}
