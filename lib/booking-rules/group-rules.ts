import { apartmentNumber } from '@/lib/i18n/format';
import { msg } from '@/lib/i18n/message';
import { wallClock } from '@/lib/schedule/zoned';
import type { RuleGroup } from './rule-set';
import type { Holder, Refusal } from './types';

/**
 * One evaluation of a rule group (rule-set.ts) for a booking an apartment would add: used by the
 * booking check, the next-free search and the apartment page's usage, and mirrored by the sandbox,
 * so that the portal refuses exactly what the service refuses (issue 35). Pure: the caller passes
 * the apartment's bookings (past ones within the longest window too) and open requests.
 */

/** A booking the apartment holds (or has asked for) in any room; only the group's rooms count. */
export interface HeldBooking {
  resourceId: string;
  startMs: number;
  endMs: number;
  /** `Unused` / `Used` as the service says; null for an open request or unknown. */
  status?: string | null;
}

export interface Candidate {
  resourceId: string;
  startMs: number;
  endMs: number;
}

export type GroupBreach =
  | { rule: 'days-ahead'; days: number }
  | { rule: 'max-future'; limit: number; held: number }
  | { rule: 'per-window'; limit: number; days: number; held: number }
  | { rule: 'max-consecutive'; limit: number };

const DAY_MS = 86_400_000;

/** The local calendar day of an instant as a day number (days since 1970-01-01 in that zone's calendar): DST-proof. */
export function localDay(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day) / DAY_MS;
}

/**
 * When the service releases an unused booking because nobody activated it: its start plus the
 * group's activation window, an absolute span (30 minutes are 30 minutes across midnight and a
 * DST change). Null when the group has no window, the booking is not `Unused` (a Service window,
 * a used booking, an open request) or the window outlasts the booking (it ends unreleased).
 */
export function releaseAtMs(booking: Pick<HeldBooking, 'startMs' | 'endMs' | 'status'>, activationMinutes: number | null): number | null {
  if (activationMinutes === null || booking.status !== 'Unused') return null;
  const at = booking.startMs + activationMinutes * 60_000;
  return at < booking.endMs ? at : null;
}

/** The activation window of a room (its rule group's), or null: a room in no group, or a group without one. */
export function activationWindowOf(resourceId: string, rules: { groups: readonly Pick<RuleGroup, 'resourceIds' | 'activationMinutes'>[] } | null): number | null {
  return rules?.groups.find((g) => g.resourceIds.includes(resourceId))?.activationMinutes ?? null;
}

/**
 * A room's rule group's days ahead with the group's room names (for its sentence), or null: a room
 * in no group, or a group without the rule. `nameOf` names a room (its id when unknown).
 */
export function daysAheadOf(
  resourceId: string,
  rules: { groups: readonly Pick<RuleGroup, 'resourceIds' | 'daysAhead'>[] } | null,
  nameOf: (id: string) => string | undefined,
): { days: number; rooms: string[] } | null {
  const group = rules?.groups.find((g) => g.resourceIds.includes(resourceId));
  if (!group || group.daysAhead === null) return null;
  return { days: group.daysAhead, rooms: group.resourceIds.map((id) => nameOf(id) ?? id) };
}

/**
 * A booking the service has released by `nowMs` (the grid shows its slot free again, reports keep
 * it as a no-show): released once its release instant has passed, also after the booking's end,
 * since by then the service has deleted it.
 */
export function wasReleased(booking: Pick<HeldBooking, 'startMs' | 'endMs' | 'status'>, activationMinutes: number | null, nowMs: number): boolean {
  const at = releaseAtMs(booking, activationMinutes);
  return at !== null && nowMs >= at;
}

/** An unused booking whose activation window has passed: the service releases it, so it holds nothing. */
export function isReleased(booking: HeldBooking, group: Pick<RuleGroup, 'activationMinutes'>, nowMs: number): boolean {
  if (group.activationMinutes === null || booking.status !== 'Unused') return false;
  return nowMs >= booking.startMs + group.activationMinutes * 60_000 && nowMs < booking.endMs;
}

/** The bookings of the apartment that count for the group: in its rooms, not released. */
export function countedIn(group: RuleGroup, held: readonly HeldBooking[], nowMs: number): HeldBooking[] {
  const rooms = new Set(group.resourceIds);
  return held.filter((b) => rooms.has(b.resourceId) && !isReleased(b, group, nowMs));
}

/** Future bookings now (not yet ended): "2 at a time". */
export function futureCount(group: RuleGroup, held: readonly HeldBooking[], nowMs: number): number {
  return countedIn(group, held, nowMs).filter((b) => b.endMs > nowMs).length;
}

/** The most bookings in any `days`-day calendar window that contains `day` (the candidate's not counted). */
export function mostInWindow(days: number, candidateDay: number, heldDays: readonly number[]): number {
  let most = 0;
  for (let first = candidateDay - days + 1; first <= candidateDay; first += 1) {
    const last = first + days - 1;
    const n = heldDays.filter((d) => d >= first && d <= last).length;
    if (n > most) most = n;
  }
  return most;
}

/** How many slots in a row the candidate would make: back-to-back (or overlapping) bookings in the group's rooms. */
export function runLength(candidate: Candidate, counted: readonly HeldBooking[]): number {
  const mine: HeldBooking = { ...candidate, status: null };
  const all = [...counted, mine].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  let run: HeldBooking[] = [];
  let runEnd = -Infinity;
  for (const b of all) {
    if (b.startMs > runEnd) {
      if (run.includes(mine)) return run.length;
      run = [];
    }
    run.push(b);
    runEnd = Math.max(runEnd, b.endMs);
  }
  return run.length;
}

/**
 * "Only today or tomorrow": the slot starts on a local calendar day more than `daysAhead` days
 * after today's. The one rule of a group that does not depend on who books, so the grid, the next
 * free slots, the building view and the display apply it to every slot (slot-rules.ts), with the
 * handler (groupBreach).
 */
export function isBeyondDaysAhead(startMs: number, nowMs: number, daysAhead: number | null, timeZone: string): boolean {
  return daysAhead !== null && localDay(startMs, timeZone) - localDay(nowMs, timeZone) > daysAhead;
}

/** The first rule of the group that adding `candidate` would break; null when the group allows it. */
export function groupBreach(group: RuleGroup, held: readonly HeldBooking[], candidate: Candidate, nowMs: number, timeZone: string): GroupBreach | null {
  if (!group.resourceIds.includes(candidate.resourceId)) return null;
  const candidateDay = localDay(candidate.startMs, timeZone);
  if (group.daysAhead !== null && isBeyondDaysAhead(candidate.startMs, nowMs, group.daysAhead, timeZone)) return { rule: 'days-ahead', days: group.daysAhead };
  const counted = countedIn(group, held, nowMs);
  if (group.maxFuture !== null) {
    const future = counted.filter((b) => b.endMs > nowMs).length;
    if (future >= group.maxFuture) return { rule: 'max-future', limit: group.maxFuture, held: future };
  }
  if (group.perWindow !== null) {
    const most = mostInWindow(
      group.perWindow.days,
      candidateDay,
      counted.map((b) => localDay(b.startMs, timeZone)),
    );
    if (most >= group.perWindow.count) return { rule: 'per-window', limit: group.perWindow.count, days: group.perWindow.days, held: most };
  }
  if (group.maxConsecutive !== null && runLength(candidate, counted) > group.maxConsecutive) return { rule: 'max-consecutive', limit: group.maxConsecutive };
  return null;
}

/** How far back the apartment's bookings must be read for the group's window (ms before now). */
export function lookBackMs(group: RuleGroup): number {
  return group.perWindow ? group.perWindow.days * DAY_MS : 0;
}

/**
 * A breach in words for the manager: "Apartment 1203 already holds 2 of 2 bookings at a time in
 * Tvättstuga 1, 4 and 5; the service would refuse another." `rooms` is the group's rooms as a list
 * in the reader's language (describe.ts roomList), `slot` the slot's words.
 */
export function groupRuleRefusal(breach: GroupBreach, who: Partial<Holder>, words: { slot: string; rooms: string }): Refusal {
  const holder = who.apartment ? 'apartment' : who.name ? 'resident' : 'unknown';
  const person = { holder, apartment: apartmentNumber(who.apartment), name: who.name ?? '' };
  const message =
    breach.rule === 'days-ahead'
      ? msg('rules.groupDaysAhead', { slot: words.slot, rooms: words.rooms, days: breach.days })
      : breach.rule === 'max-future'
        ? msg('rules.groupMaxFuture', { ...person, rooms: words.rooms, held: breach.held, limit: breach.limit })
        : breach.rule === 'per-window'
          ? msg('rules.groupPerWindow', { ...person, rooms: words.rooms, slot: words.slot, held: breach.held, limit: breach.limit, days: breach.days })
          : msg('rules.groupMaxConsecutive', { ...person, rooms: words.rooms, slot: words.slot, limit: breach.limit });
  return { rule: 'group-rules', code: 'unprocessable_entity', message };
}
