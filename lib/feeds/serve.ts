import 'server-only';
import { createTranslator } from 'next-intl';
import { createTokenRateLimiter, type TokenRateLimiter } from '@/lib/http/rate-limit';
import { ApiError } from '@/lib/errors/api-error';
import { isLocale, type Locale } from '@/lib/i18n/config';
import { loadMessages } from '@/lib/i18n/messages';
import { env } from '@/lib/env';
import { msg, type Message } from '@/lib/i18n/message';
import { mirrorSnapshot, type MirrorSnapshot } from '@/lib/mirror/snapshot';
import { readReservations, readReservationsOfApartment, readUsers } from '@/lib/mirror/store';
import { singleton } from '@/lib/singleton';
import { getSystem } from '@/lib/systems/store';
import { systemMirror, type ViewDeps } from '@/lib/views/freshness';
import { ownerLabelsFor } from '@/lib/views/owner-labels';
import { findActiveFeed } from './feeds';
import { buildFeedCalendar, type FeedEvent } from '@/lib/calendar/ical';
import { feedTokenHash, tokenOfFeedFile } from './token';
import { apartmentNumber } from '@/lib/i18n/format';

const DAY_MS = 86_400_000;
/** How far back a feed reaches; forward it reaches to the end of the mirror's data. */
export const FEED_PAST_DAYS = 30;
/** "The end of the mirror's data": an upper bound no booking horizon comes near. */
const FEED_AHEAD_DAYS = 5 * 366;

/**
 * Reads per feed token and client address: a calendar app polls every few minutes at most, so 30
 * in 10 minutes leaves room for several devices behind one address. Per address over all tokens
 * (unknown ones included, which slows anyone trying tokens): 300 in 10 minutes.
 */
export const FEED_LIMITS = {
  perToken: { points: 30, duration: 600 },
  perAddress: { points: 300, duration: 600 },
} as const;

export type FeedRateLimiter = TokenRateLimiter;

export function portalFeedRateLimiter(): FeedRateLimiter {
  return singleton('feed-rate-limiter', () => createTokenRateLimiter('feed', FEED_LIMITS));
}

export interface FeedDeps extends ViewDeps {
  limiter: FeedRateLimiter;
}

type Translate = (key: string, values?: Message['values']) => string;

async function translatorFor(locale: Locale): Promise<Translate> {
  const t = createTranslator({ locale, messages: await loadMessages(locale) });
  return t as unknown as Translate;
}

/** Answers GET /feeds/{token}.ics: the calendar, or 404 (same for unknown, malformed and revoked), 429, 503. */
export async function feedResponse(deps: FeedDeps, file: string, address: string): Promise<Response> {
  const token = tokenOfFeedFile(file);
  // Counted before the lookup, so unknown tokens are limited too; keyed on the hash, never the token.
  const wait = await deps.limiter.consume(token ? feedTokenHash(token) : 'malformed', address);
  if (wait !== null) throw new ApiError('rate_limited', msg('feeds.errors.rateLimited', { seconds: wait }), { 'Retry-After': String(wait) });
  const feed = token ? await findActiveFeed(deps.db, token) : undefined;
  const system = feed ? await getSystem(deps.db, feed.deviceId) : undefined;
  if (!feed || !system) throw new ApiError('not_found', msg('feeds.errors.notFound'));

  const now = deps.now?.() ?? new Date();
  // A calendar app fetching its feed is not someone opening the system.
  const { state } = await systemMirror(deps, system.deviceId, undefined, { opened: false });
  const snapshot = state?.refreshedAt ? await mirrorSnapshot(deps.db, system.deviceId, state) : null;
  if (!snapshot) throw new ApiError('service_unavailable', msg('errors.stillLoading'), { 'Retry-After': '30' });

  const locale: Locale = isLocale(feed.locale) ? feed.locale : env.PORTAL_DEFAULT_LOCALE;
  const t = await translatorFor(locale);
  const range = { from: new Date(now.getTime() - FEED_PAST_DAYS * DAY_MS), to: new Date(now.getTime() + FEED_AHEAD_DAYS * DAY_MS) };
  const { name, events } =
    feed.scope === 'room'
      ? await roomFeed(deps, snapshot, feed.resourceId ?? '', range, t, system.name)
      : await apartmentFeed(deps, snapshot, feed.groupId ?? '', range, t, system.name);
  const body = buildFeedCalendar({ name, timeZone: system.timeZone, events, now });
  return new Response(body, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Cache-Control': 'private, max-age=300',
      ...FEED_HEADERS,
    },
  });
}

/** The address is the secret: no referrer carries it anywhere, no index keeps it (every answer, 404s too). */
export const FEED_HEADERS = { 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex' } as const;

type Range = { from: Date; to: Date };

/** A room's bookings and maintenance; a booking says its apartment (as the grid does), never a resident. */
async function roomFeed(deps: FeedDeps, snapshot: MirrorSnapshot, resourceId: string, range: Range, t: Translate, systemName: string) {
  const resource = snapshot.resourceById.get(resourceId);
  const reservations = resource ? await readReservations(deps.db, snapshot.deviceId, { ...range, resourceId }) : [];
  const ownerOf = await ownerLabelsFor(deps.db, snapshot.deviceId, reservations, snapshot.groupById);
  const events: FeedEvent[] = reservations.map((r) => {
    const owner = r.ownerType === 'Service' ? null : ownerOf(r);
    const summary =
      r.ownerType === 'Service'
        ? t('feeds.event.maintenance')
        : owner?.kind === 'apartment'
          ? t('feeds.event.bookedApartment', { apartment: apartmentNumber(owner.apartment) })
          : t('feeds.event.booked');
    return { reservationId: r.id, startMs: Date.parse(r.startTime), endMs: Date.parse(r.endTime), summary };
  });
  const room = resource?.name.trim() || t('apartment.unnamedRoom');
  return { name: t('feeds.calendar.room', { room, system: systemName }), events };
}

/** A booking's room in a feed: its name, "Unnamed room", or "Room no longer listed by the booking system". */
function roomSummary(name: string | undefined, t: Translate): string {
  if (name === undefined) return t('apartment.unlistedRoom');
  return name.trim() || t('apartment.unnamedRoom');
}

/** An apartment's bookings in every room (its group's and its residents' own), titled by the room. */
async function apartmentFeed(deps: FeedDeps, snapshot: MirrorSnapshot, groupId: string, range: Range, t: Translate, systemName: string) {
  const group = snapshot.groupById.get(groupId);
  const members = group ? await readUsers(deps.db, snapshot.deviceId, [groupId]) : [];
  const reservations = group
    ? await readReservationsOfApartment(deps.db, snapshot.deviceId, { groupId, userIds: members.map((m) => m.id) }, range)
    : [];
  const events: FeedEvent[] = reservations
    .filter((r) => r.ownerType !== 'Service')
    .map((r) => ({
      reservationId: r.id,
      startMs: Date.parse(r.startTime),
      endMs: Date.parse(r.endTime),
      // A room the service no longer lists has no name to give: the event says so.
      summary: roomSummary(snapshot.resourceById.get(r.resourceId)?.name, t),
    }));
  const apartment = group?.apartmentId.trim() || group?.name.trim() || '';
  return { name: t('feeds.calendar.apartment', { apartment, system: systemName }), events };
}
