import { wallClock } from '@/lib/schedule/zoned';

const HOUR_MS = 3_600_000;

/**
 * An instant's local wall-clock time in a zone, as fields of a UTC Date (getUTCFullYear … are the
 * local ones). Exports write tens of thousands of instants a second: the zone's offset is looked
 * up once per hour of time (offsets change on whole hours, or half hours at the least, in every
 * zone the portal serves) rather than through Intl for every cell.
 */
export function localWallDate(ms: number, timeZone: string): Date {
  let zone = offsets.get(timeZone);
  if (!zone) {
    zone = new Map();
    offsets.set(timeZone, zone);
  }
  // Half-hour buckets, so a zone switching on a half hour is still right.
  const bucket = Math.floor(ms / (HOUR_MS / 2));
  let offset = zone.get(bucket);
  if (offset === undefined) {
    const at = bucket * (HOUR_MS / 2);
    const w = wallClock(at, timeZone);
    offset = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - at;
    if (zone.size > 100_000) zone.clear();
    zone.set(bucket, offset);
  }
  return new Date(ms + offset);
}

const offsets = new Map<string, Map<number, number>>();

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** `yyyy-MM-dd HH:mm` in the zone. */
export function localDateTimeText(ms: number, timeZone: string): string {
  const d = localWallDate(ms, timeZone);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
}

/** `yyyy-MM-dd` in the zone. */
export function localDateText(ms: number, timeZone: string): string {
  return localDateTimeText(ms, timeZone).slice(0, 10);
}

/** `HH:mm` in the zone. */
export function localClockText(ms: number, timeZone: string): string {
  return localDateTimeText(ms, timeZone).slice(11);
}
