import 'server-only';
import { TZDate } from '@date-fns/tz';
import { ICalCalendar } from 'ical-generator';
import { tzlib_get_ical_block, tzlib_get_timezones } from 'timezones-ical-library';

/** One event of a feed, already worded in the feed's language. */
export interface FeedEvent {
  reservationId: string;
  startMs: number;
  endMs: number;
  summary: string;
}

export interface FeedCalendar {
  /** The calendar's name as calendar apps show it (X-WR-CALNAME). */
  name: string;
  /** The system's IANA zone; events carry it as TZID with its VTIMEZONE. */
  timeZone: string;
  events: readonly FeedEvent[];
  /** DTSTAMP of every event: when the feed was made. */
  now: Date;
}

const PRODUCT_ID = { company: 'laundry-portal', product: 'calendar-feed' } as const;
/** How often a calendar app is asked to read again (REFRESH-INTERVAL / X-PUBLISHED-TTL). */
export const FEED_REFRESH_SECONDS = 30 * 60;

/** Stable across reads and rotations, so a calendar app updates an event instead of adding a copy. */
export function eventUid(reservationId: string): string {
  return `${reservationId.toLowerCase()}@laundry-portal`;
}

const HOUR_MS = 3_600_000;

function offsetMs(ms: number, timeZone: string): number {
  return -new TZDate(ms, timeZone).getTimezoneOffset() * 60_000;
}

/** Whether the wall-clock time of `ms` in the zone also belongs to another instant (a repeated hour). */
export function isRepeatedWallTime(ms: number, timeZone: string): boolean {
  const wall = ms + offsetMs(ms, timeZone);
  // Offsets change by at most a few hours: the other instant, if any, has the offset of 3 h before or after.
  for (const probe of [ms - 3 * HOUR_MS, ms + 3 * HOUR_MS]) {
    const other = wall - offsetMs(probe, timeZone);
    if (other !== ms && other + offsetMs(other, timeZone) === wall) return true;
  }
  return false;
}

let knownZones: ReadonlySet<string> | null = null;

/**
 * The zone's VTIMEZONE, or null when the library has none (then events are written in UTC). The
 * library answers some zones with the block of the zone they share rules with (Europe/Stockholm
 * → TZID:Europe/Berlin): its TZID is renamed, else it would not match the events' TZID and a
 * calendar app would not find their zone.
 */
export function vtimezoneBlock(timeZone: string): string | null {
  knownZones ??= new Set(tzlib_get_timezones());
  // Asked only for zones it knows: for others the library prints to the console.
  if (!knownZones.has(timeZone)) return null;
  const [block] = tzlib_get_ical_block(timeZone);
  if (!block) return null;
  return block.replace(/^TZID:.*$/m, `TZID:${timeZone}`).replace(/^X-LIC-LOCATION:.*$/m, `X-LIC-LOCATION:${timeZone}`);
}

/**
 * The feed as iCalendar text (RFC 5545). Times are wall-clock times in the system's zone with
 * TZID, and the VTIMEZONE that defines it, so a calendar app shows them right across DST changes.
 *
 * The calendar itself gets no zone (ical-generator would then write DTSTAMP as a local time without
 * "Z", which RFC 5545 forbids): each event names its zone, and the generator hook writes the
 * VTIMEZONE for the events' zones. X-WR-TIMEZONE tells apps that read it which zone the feed is in.
 */
export function buildFeedCalendar(feed: FeedCalendar): string {
  const vtimezone = vtimezoneBlock(feed.timeZone);
  const zoned = vtimezone !== null;
  const calendar = new ICalCalendar({ name: feed.name, prodId: PRODUCT_ID, ttl: FEED_REFRESH_SECONDS });
  if (zoned) {
    calendar.timezone({ name: null, generator: (zone) => (zone === feed.timeZone ? vtimezone : null) });
    calendar.x([['X-WR-TIMEZONE', feed.timeZone]]);
  }
  for (const event of feed.events) {
    // A wall time that happens twice (the autumn night's repeated hour) would name two instants:
    // RFC 5545 says the first, parsers differ (node-ical takes the second). Such events are
    // written in UTC, which names one.
    const local = zoned && !isRepeatedWallTime(event.startMs, feed.timeZone) && !isRepeatedWallTime(event.endMs, feed.timeZone);
    calendar.createEvent({
      id: eventUid(event.reservationId),
      // TZDate, not Date: with a zone, ical-generator formats a plain Date in the process's own zone.
      start: local ? new TZDate(event.startMs, feed.timeZone) : new Date(event.startMs),
      end: local ? new TZDate(event.endMs, feed.timeZone) : new Date(event.endMs),
      timezone: local ? feed.timeZone : null,
      stamp: feed.now,
      summary: event.summary,
    });
  }
  return calendar.toString();
}
