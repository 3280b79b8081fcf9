import { createHash } from 'node:crypto';
import type { Shapes } from './faults';
import type { ReservationResultEvent } from './processor';

/**
 * The wire forms of `shapes` faults (faults.ts): pure functions from the sandbox's canonical
 * answer to one a real service may send. With no shape set each returns its input unchanged,
 * so answers stay byte-for-byte what they were.
 */

/** Put before every continuation token by `oddTokens`: only a correctly percent-encoded token comes back intact. */
export const ODD_TOKEN_PREFIX = 'a+b/c=d&e?f g%';

type Item = Record<string, unknown>;

export const hasTimeShape = (shapes: Shapes) => Boolean(shapes.minuteTimes || shapes.offsetTimes || shapes.fractionTimes);

/** Writes an instant as the time shapes ask; `plain` (today's exact form) when none is set. */
export function writeTime(value: Date, shapes: Shapes, plain: string): string {
  if (!hasTimeShape(shapes)) return plain;
  // +01:00 is written by shifting the wall clock one hour; the instant stays the same.
  const wall = new Date(value.getTime() + (shapes.offsetTimes ? 3_600_000 : 0)).toISOString();
  let text = wall.slice(0, 16);
  if (!shapes.minuteTimes) {
    text += wall.slice(16, 19);
    const ms = wall.slice(20, 23);
    if (shapes.fractionTimes) text += `.${ms}0000`;
    else if (ms !== '000') text += `.${ms}`;
  }
  return text + (shapes.offsetTimes ? '+01:00' : 'Z');
}

export const hasIdShape = (shapes: Shapes) => Boolean(shapes.idCase || shapes.bracedIds);

/** A GUID as the `idCase` and `bracedIds` shapes write it; anything else (null, a plain string) unchanged. */
export function spellId<T>(value: T, shapes: Shapes): T {
  if (typeof value !== 'string' || !hasIdShape(shapes) || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) return value;
  let letter = 0;
  const cased =
    shapes.idCase === 'upper' ? value.toUpperCase() : shapes.idCase === 'mixed' ? value.replace(/[a-f]/gi, (c) => (letter++ % 2 === 0 ? c.toUpperCase() : c.toLowerCase())) : value;
  return (shapes.bracedIds ? `{${cased}}` : cased) as T;
}

/** The named GUID fields of an item (and GUID arrays, such as reservationResources) as the id shapes write them. */
export function shapeIds(item: Item, fields: readonly string[], shapes: Shapes): Item {
  if (!hasIdShape(shapes)) return item;
  const out: Item = { ...item };
  for (const field of fields) {
    const value = out[field];
    if (Array.isArray(value)) out[field] = value.map((v: unknown) => spellId(v, shapes));
    else if (field in out) out[field] = spellId(value, shapes);
  }
  return out;
}

/** Display-only fields: null, absent or empty on some items (see faults.ts). */
export function shapeLabels(item: Item, index: number, fields: readonly string[], shapes: Shapes): Item {
  const gone = index % 3 === 2 && (shapes.missingOptional || shapes.nullLabels);
  const empty = index % 3 === 1 && shapes.emptyLabels;
  if (!gone && !empty) return item;
  const out: Item = { ...item };
  for (const field of fields) {
    if (!(field in out)) continue;
    if (empty) out[field] = '';
    else if (shapes.missingOptional) delete out[field];
    else out[field] = null;
  }
  return out;
}

/** Unknown members a newer service version might add, appended after the known ones. */
export function withExtras<T extends Item>(value: T, shapes: Shapes, href: string): T {
  if (!shapes.extraFields) return value;
  const etag = createHash('sha1').update(JSON.stringify(value)).digest('hex').slice(0, 12);
  return { ...value, etag: `W/"${etag}"`, _links: { self: { href } }, tenantRef: null };
}

/** Reservations with index % 5 === 4 get an ownerType and a status the interface does not list. */
export function shapeEnums(item: Item, index: number, shapes: Shapes): Item {
  if (!shapes.unknownEnums || index % 5 !== 4) return item;
  return { ...item, ownerType: 'Facility', status: 'Released' };
}

/** A Week schedule rewritten as a structure of another (unknown) schedule type, on every 2nd schedule. */
export function shapeScheduleType(item: Item, index: number, shapes: Shapes): Item {
  if (!shapes.unknownScheduleType || index % 2 !== 1) return item;
  const week = Array.isArray(item.schedule) ? (item.schedule as [number, number][][]) : [];
  const slots = week.flatMap((day, weekday) => day.map(([start, length]) => ({ weekday, start, length })));
  return { ...item, scheduleType: 'Custom', schedule: { unit: 'minutes', slots } };
}

/**
 * Orders and shapes the items of one array as sent: `shuffle` first, then per-item shapes by their
 * position in the array as sent.
 */
export function shapeItems(items: Item[], shapes: Shapes, href: string, perItem: (item: Item, index: number) => Item = (i) => i): Item[] {
  const ordered = shapes.shuffle ? [...items].reverse() : items;
  return ordered.map((item, index) => withExtras(perItem(item, index), shapes, href));
}

/** A webhook event as sent: its envelope timestamp in the time shapes, unknown members on envelope and eventData. */
export function shapeEvent(event: ReservationResultEvent, shapes: Shapes): ReservationResultEvent | Item {
  if (!hasTimeShape(shapes) && !shapes.extraFields && !hasIdShape(shapes)) return event;
  const href = `/v1/reservations/requests/${event.correlationId}`;
  const timestamp = writeTime(new Date(event.timestamp), shapes, event.timestamp);
  const data = event.eventData.data;
  const eventData = withExtras(data ? { ...event.eventData, data: { ...data, reservationId: spellId(data.reservationId, shapes) } } : { ...event.eventData }, shapes, href);
  return withExtras({ ...event, correlationId: spellId(event.correlationId, shapes), eventData, timestamp }, shapes, href);
}
