import 'server-only';
import { createTranslator } from 'next-intl';
import { sha256 } from '@/lib/crypto';
import type { DisplayLocale } from '@/lib/db/schema';
import { env } from '@/lib/env';
import { ApiError } from '@/lib/errors/api-error';
import { createTokenRateLimiter, type TokenLimits, type TokenRateLimiter } from '@/lib/http/rate-limit';
import { latestEventId } from '@/lib/events/store';
import { msg } from '@/lib/i18n/message';
import { loadMessages } from '@/lib/i18n/messages';
import { createNonce } from '@/lib/security/headers';
import { singleton } from '@/lib/singleton';
import { getSystem } from '@/lib/systems/store';
import type { ViewDeps } from '@/lib/views/freshness';
import { displayOfToken, type ActiveDisplay } from './displays';
import { renderDisplayPage, renderGonePage, renderRooms, type DisplayTranslate } from './render';
import { loadDisplayScreen } from './screen';

/**
 * How often a display's script asks for its rooms, in seconds, with its stream open or not. Changes
 * made in the portal come by the stream, but one made at the booking system itself (a door panel)
 * reaches the portal only when its copy is re-read, which a view's read starts once the freshness
 * window has passed, and the screen sees it at its next read: the display's bound is the portal's
 * promise (lib/mirror/freshness-bound.ts) plus two reads. Every 30 s missed the promise by up to a
 * minute; a read of a display is a cached view.
 */
export const DISPLAY_UPDATE_S = 15;

/**
 * Reads per display token and address: a screen asks for the rooms at every change and every
 * DISPLAY_UPDATE_S (40 in 10 minutes), and opens its stream again after a break, so 200 leaves room
 * for several screens of one display behind one address and for reloads. Per address over all
 * tokens (unknown ones included, which slows anyone trying tokens): 600 in 10 minutes.
 */
export const DISPLAY_LIMITS: TokenLimits = {
  perToken: { points: 200, duration: 600 },
  perAddress: { points: 600, duration: 600 },
};

/**
 * What of a display its page itself holds (the heading, the language of its sentences), as a short
 * hash: the page sends it with its stream, which ends with "reload" when the display's differs
 * (lib/displays/stream.ts), also for a page rendered just before a rename its stream opened after.
 */
export function displayPageVersion(display: Pick<ActiveDisplay, 'name' | 'locale'>): string {
  return sha256(`${display.locale}\n${display.name}`).slice(0, 16);
}

export type DisplayRateLimiter = TokenRateLimiter;

export function portalDisplayRateLimiter(): DisplayRateLimiter {
  return singleton('display-rate-limiter', () => createTokenRateLimiter('display', DISPLAY_LIMITS));
}

export interface DisplayDeps extends ViewDeps {
  limiter: DisplayRateLimiter;
}

export async function translatorFor(locale: DisplayLocale): Promise<DisplayTranslate> {
  const t = createTranslator({ locale, messages: await loadMessages(locale), namespace: 'display' });
  return t as unknown as DisplayTranslate;
}

/**
 * The address is the secret: no referrer carries it, no index keeps it, no frame holds it. The
 * page's own style and script carry the nonce; it may fetch only from the portal itself.
 */
export function displayHeaders(nonce: string): Record<string, string> {
  return {
    'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    'Referrer-Policy': 'no-referrer',
    'X-Robots-Tag': 'noindex, nofollow',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'no-store',
  };
}

export type Opened = { display: ActiveDisplay } | { gone: 'revoked' | 'unknown'; locale: DisplayLocale };

/** Counts the read and looks the token up: the display, or why there is none. */
export async function openDisplay(deps: DisplayDeps, token: string, address: string): Promise<Opened> {
  // Counted before the lookup, so unknown tokens are limited too; keyed on the hash, never the token.
  const wait = await deps.limiter.consume(sha256(token), address);
  if (wait !== null) throw new ApiError('rate_limited', msg('display.rateLimited', { seconds: wait }), { 'Retry-After': String(wait) });
  const found = await displayOfToken(deps.db, token);
  if (found === undefined) return { gone: 'unknown', locale: env.PORTAL_DEFAULT_LOCALE };
  if ('revoked' in found) return { gone: 'revoked', locale: found.locale };
  return { display: found };
}

async function screenOf(deps: DisplayDeps, display: ActiveDisplay) {
  const system = await getSystem(deps.db, display.deviceId);
  // A disconnected system's displays have nothing to show: as switched off.
  if (!system) return null;
  return loadDisplayScreen(deps, system, display);
}

/** GET /display/{token}: the screen as a page, or "switched off" (410) / "no display here" (404). */
export async function displayPageResponse(deps: DisplayDeps, token: string, address: string): Promise<Response> {
  const nonce = createNonce();
  const opened = await openDisplay(deps, token, address);
  // Read before the screen: the stream starts after it, so no change between the two is missed.
  const lastEventId = 'display' in opened ? await latestEventId(deps.db) : 0;
  const screen = 'display' in opened ? await screenOf(deps, opened.display) : null;
  if (!('display' in opened) || !screen) {
    const locale = 'display' in opened ? opened.display.locale : opened.locale;
    const t = await translatorFor(locale);
    const revoked = 'display' in opened || opened.gone === 'revoked';
    return new Response(renderGonePage({ text: t(revoked ? 'switchedOff' : 'notFound'), locale, nonce }), {
      status: revoked ? 410 : 404,
      headers: { 'Content-Type': 'text/html; charset=utf-8', ...displayHeaders(nonce) },
    });
  }
  const t = await translatorFor(opened.display.locale);
  const html = renderDisplayPage({ screen, locale: opened.display.locale, t, nonce, everyS: DISPLAY_UPDATE_S, lastEventId, version: displayPageVersion(opened.display) });
  return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8', ...displayHeaders(nonce) } });
}

/** GET /display/{token}/screen: the rooms part, for the page's script; 410 once switched off. */
export async function displayScreenResponse(deps: DisplayDeps, token: string, address: string): Promise<Response> {
  const opened = await openDisplay(deps, token, address);
  const screen = 'display' in opened ? await screenOf(deps, opened.display) : null;
  if (!('display' in opened) || !screen) {
    const gone = 'display' in opened || opened.gone === 'revoked';
    const t = await translatorFor('display' in opened ? opened.display.locale : opened.locale);
    const error = { code: gone ? 'gone' : 'not_found', message: t(gone ? 'switchedOff' : 'notFound') };
    return Response.json({ error }, { status: gone ? 410 : 404, headers: displayHeaders(createNonce()) });
  }
  const t = await translatorFor(opened.display.locale);
  return Response.json(
    { html: renderRooms(screen, opened.display.locale, t), refreshedAt: screen.refreshedAt, nowMs: screen.nowMs },
    { headers: displayHeaders(createNonce()) },
  );
}
