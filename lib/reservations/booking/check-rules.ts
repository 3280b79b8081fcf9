import 'server-only';
import {
  DEFAULT_BOOKING_HORIZON_DAYS,
  DEFAULT_BOOKING_QUOTA,
  alreadyStarted,
  bookingHorizonEnd,
  cancellationRefusedFor,
  closureOver,
  daysAheadOf,
  groupBreach,
  groupRuleRefusal,
  hasStarted,
  isBeyondDaysAhead,
  isBeyondHorizon,
  isResidentAuthorized,
  isScheduledSlot,
  isWithinQuota,
  noListedSchedule,
  notAuthorized,
  notOnSchedule,
  quotaExceeded,
  roomClosed,
  roomList,
  slotRefusal,
  type HeldBooking,
  type RuleGroup,
} from '@/lib/booking-rules';
import { env } from '@/lib/env';
import type { Locale } from '@/lib/i18n/config';
import { expandRange } from '@/lib/schedule';
import type { StoredOwnerType } from '@/lib/db/schema';
import type { ResidentFacts, SlotFacts } from './gather-facts';
import { closurePeriodIn, noSuchResource, refuse, residentNotInSystem, slotIn, slotWords } from './refusals';
import type { SystemContext } from './types';

/**
 * Step 3, the rules (lib/booking-rules) applied to the gathered facts, in the same order as the
 * grid's `bookable`: no reads here. Each refusal is thrown as its ApiError (refusals.ts); what
 * passes is what the later steps need.
 */
export function checkSlot(facts: SlotFacts, ask: { resourceId: string; startMs: number; endMs: number }, system: SystemContext, nowMs: number) {
  const { startMs, endMs } = ask;
  const { resource, schedule, reservationsKnown } = facts;
  if (!resource) throw noSuchResource(ask.resourceId, system);
  const words = { slot: slotWords(startMs, endMs, system.timeZone), resource: resource.name };
  const inLanguage = slotIn(startMs, endMs, system.timeZone);
  // A room whose schedule the service does not list: no slot of it can be known, so none is booked.
  if (!schedule) refuse(noListedSchedule(words), inLanguage);
  const slot = schedule
    ? expandRange(schedule.schedule, startMs, startMs + 1, system.timeZone, system.scheduleBasis).find((s) => isScheduledSlot(s, startMs, endMs))
    : undefined;
  if (!slot) refuse(notOnSchedule(words), inLanguage);
  const horizonDays = system.bookingHorizonDays ?? DEFAULT_BOOKING_HORIZON_DAYS;
  const beyondHorizon = isBeyondHorizon(slot, bookingHorizonEnd(nowMs, horizonDays));
  // The room group's "only N days ahead" (who books does not matter): refused here, as the grid shows it.
  const daysAhead = daysAheadOf(resource.id, facts.rules, (id) => facts.roomNames.get(id));
  const beyondDaysAhead = daysAhead && isBeyondDaysAhead(startMs, nowMs, daysAhead.days, system.timeZone) ? daysAhead.days : null;
  const rooms = (locale: Locale) => roomList(daysAhead?.rooms ?? [resource.name], locale);
  const withRooms = (locale: Locale) => ({ ...inLanguage(locale), rooms: rooms(locale) });
  const notYet = slotRefusal({ startMs, overlapping: 0, beyondHorizon, beyondDaysAhead, reservationsKnown }, nowMs, { ...words, rooms: rooms(env.PORTAL_DEFAULT_LOCALE) }, horizonDays);
  if (notYet) refuse(notYet, withRooms);
  // A room closure over the slot (lib/closures): refused with its reason and period.
  const closure = closureOver({ startMs, endMs }, resource.id, facts.closures);
  if (closure) {
    const period = closurePeriodIn(closure, system.timeZone);
    refuse(roomClosed(words, closure.reason, period(env.PORTAL_DEFAULT_LOCALE)), (locale) => ({ ...inLanguage(locale), period: period(locale) }));
  }
  const refusal = slotRefusal({ startMs, overlapping: facts.taken.length, beyondHorizon }, nowMs, words, horizonDays);
  if (refusal) refuse(refusal, inLanguage);
  return { resource, slot, words, inLanguage };
}

/** The resident: one of the system's users, authorized for the room. */
export function checkResident(facts: ResidentFacts, residentUserId: string, resource: { id: string; name: string }, system: SystemContext) {
  const { resident, apartmentKeys } = facts;
  if (!resident || !apartmentKeys) throw residentNotInSystem(residentUserId, system);
  const apartment = facts.group?.apartmentId || null;
  if (!isResidentAuthorized(resident.reservationResources, resource.id)) refuse(notAuthorized({ apartment, name: resident.name }, resource.name));
  return { resident, apartment, apartmentKeys };
}

/** The apartment's quota in the room, given what it holds there (read under the room's booking lock). */
export function checkQuota(held: number, system: SystemContext, who: { apartment: string | null; name: string }, resourceName: string): void {
  const quota = system.bookingQuota ?? DEFAULT_BOOKING_QUOTA;
  if (!isWithinQuota(held, quota)) refuse(quotaExceeded(who, resourceName, held, quota));
}

/**
 * The room's rule group (lib/booking-rules/group-rules.ts), given what the apartment holds and has
 * held (read under the room's booking lock): the same evaluation as the grid's and the sandbox's.
 */
export function checkGroupRules(
  group: RuleGroup,
  held: readonly HeldBooking[],
  ask: { resourceId: string; startMs: number; endMs: number },
  system: SystemContext,
  who: { apartment: string | null; name: string },
  roomNames: ReadonlyMap<string, string>,
  nowMs: number,
): void {
  const breach = groupBreach(group, held, ask, nowMs, system.timeZone);
  if (!breach) return;
  const names = group.resourceIds.map((id) => roomNames.get(id) ?? id);
  const inLanguage = slotIn(ask.startMs, ask.endMs, system.timeZone);
  const local = (locale: Locale) => ({ ...inLanguage(locale), rooms: roomList(names, locale) });
  refuse(groupRuleRefusal(breach, who, { slot: slotWords(ask.startMs, ask.endMs, system.timeZone), rooms: roomList(names, env.PORTAL_DEFAULT_LOCALE) }), local);
}

/** A cancellation: of a booking the portal may cancel, not yet started. */
export function checkCancellation(reservation: { ownerType: StoredOwnerType; startTime: string; endTime: string }, system: SystemContext, nowMs: number) {
  const startMs = Date.parse(reservation.startTime);
  const endMs = Date.parse(reservation.endTime);
  const words = slotWords(startMs, endMs, system.timeZone);
  const inLanguage = slotIn(startMs, endMs, system.timeZone);
  const ownerRefusal = cancellationRefusedFor(reservation.ownerType, words);
  if (ownerRefusal) refuse(ownerRefusal, inLanguage);
  if (hasStarted({ startMs }, nowMs)) refuse(alreadyStarted('cancel', words), inLanguage);
  return { words, inLanguage };
}
