import { bookingHorizonEnd, isBeyondHorizon } from '@/lib/booking-rules/within-booking-horizon';
import { isBeyondDaysAhead, wasReleased } from '@/lib/booking-rules/group-rules';
import { isBookable } from '@/lib/booking-rules/slot-rules';
import type { ScheduleSlot } from './expand';
import { clock, wallClock } from './zoned';
import { type InstantInput, type OwnerType, type ReservationStatus, type Owner, type ScheduleReservation, requireMs, toMs } from './types';

/**
 * 'pending': a booking of the free slot was requested and its outcome has not arrived yet.
 * 'loading': a first load is still reading the system's reservations and none read so far touches
 * the slot: it may be free or taken (being checked), and is never bookable.
 */
export type SlotState = 'past' | 'free' | 'booked' | 'maintenance' | 'used' | 'pending' | 'loading';

/** A reservation as it touches one slot. */
export interface SlotReservation {
  id: string;
  ownerType: OwnerType;
  status: ReservationStatus;
  userId: string | null;
  ownerId: string | null;
  startMs: number;
  endMs: number;
  /** Local "HH:mm" of the reservation's own start/end (they differ from the slot's when partial). */
  startLabel: string;
  endLabel: string;
  /** Who holds it ("apartment 1203"); null for Service windows. */
  ownerLabel: Owner | null;
  /** 'full' when the reservation covers the whole slot, 'partial' when only part of it. */
  coverage: 'full' | 'partial';
}

/**
 * A slot with its state. Precedence when several reservations overlap a slot:
 * maintenance (any Service reservation) > used (a Used one) > booked (an Unused User/Group one)
 * > past (nothing, and the slot has ended) > free. A booked slot keeps `booked` after it ends;
 * `isPast` says it is history.
 */
export interface StatefulSlot extends ScheduleSlot {
  state: SlotState;
  /** Holder of the primary reservation when booked or used. */
  ownerLabel: Owner | null;
  /** The reservation that decided the state, or null when free/past. */
  reservation: SlotReservation | null;
  /** Every reservation overlapping the slot, earliest first (more than one means overlap upstream). */
  reservations: SlotReservation[];
  /** The slot has ended (end <= now). */
  isPast: boolean;
  /** The slot is running now (start <= now < end). */
  isCurrent: boolean;
  /**
   * The slot lies beyond the room's booking horizon, so it cannot be booked yet: it ends after the
   * system's horizon, or starts later than its rule group's days ahead allow (`daysAheadRule`).
   */
  beyondHorizon: boolean;
  /**
   * Set when the room's rule group's "only N days ahead" is what puts the slot beyond the horizon
   * (OverlayOptions.daysAhead): the rule, for its sentence. Absent when the system's horizon does.
   */
  daysAheadRule?: DaysAheadRule;
  /** Free, not started, and within the horizon: a booking may be requested. */
  bookable: boolean;
  /**
   * A first load is still reading reservations: more may overlap this slot than it shows (a known
   * booking still shows as booked). Never bookable while set; see OverlayOptions.reservationsComplete.
   */
  checking?: boolean;
  /** An open portal request about this slot (see applyOpenRequests), if any. */
  pending?: { requestId: string; kind: 'create' | 'cancel' } | null;
  /** A room closure over the slot (lib/closures; see markClosedSlots): never bookable, shown "Closed: reason". */
  closed?: ClosedMark | null;
  /**
   * An unused booking over the slot that the service released when nobody activated it within its
   * room group's window (OverlayOptions.activationMinutes): it holds nothing, so the slot is free
   * again ("Released – not activated"). Set only when there is one.
   */
  released?: SlotReservation;
}

/** A room group's "only N calendar days ahead" (lib/booking-rules rule-set.ts daysAhead) with the group's room names. */
export interface DaysAheadRule {
  days: number;
  rooms: readonly string[];
}

/** The closure that closes a slot, as the grid shows it. */
export interface ClosedMark {
  closureId: string;
  reason: string;
  startMs: number;
  endMs: number;
}

export interface OverlayOptions {
  now: InstantInput;
  /** End of the booking horizon; defaults to now + horizonDays. */
  horizonEnd?: InstantInput;
  /** Days ahead that may be booked (default 28, as the sandbox's bookingHorizonDays). */
  horizonDays?: number;
  /** Names the holder of a User/Group reservation, e.g. "apartment 1203" (see createOwnerLabeler). */
  ownerLabel?: (reservation: ScheduleReservation) => Owner | null | undefined;
  /** When given, reservations of other resources are ignored. */
  resourceId?: string;
  /**
   * False while a first load is still reading the reservations (given are those read so far): a
   * slot none of them touches is 'loading', and no slot is bookable (lib/booking-rules
   * reservations-known). Default true.
   */
  reservationsComplete?: boolean;
  /**
   * The room group's activation window in minutes (lib/booking-rules activationWindowOf): an
   * `Unused` booking is released that long after its start, as the service does, and no longer
   * occupies its slot. Null or absent: no release.
   */
  activationMinutes?: number | null;
  /**
   * The room group's days ahead (lib/booking-rules isBeyondDaysAhead): a slot starting on a later
   * local day is beyond the horizon, as the handler refuses it. Null or absent: no such rule.
   */
  daysAhead?: DaysAheadRule | null;
}

/** Marks slots that end after now + horizonDays as not bookable (the rules in lib/booking-rules). */
export function applyBookingHorizon<T extends StatefulSlot>(
  slots: readonly T[],
  options: { now: InstantInput; horizonDays?: number; horizonEnd?: InstantInput },
): T[] {
  const nowMs = requireMs(options.now, 'now');
  const horizonMs =
    options.horizonEnd !== undefined ? requireMs(options.horizonEnd, 'horizonEnd') : bookingHorizonEnd(nowMs, options.horizonDays);
  return slots.map((slot) => {
    const beyondHorizon = isBeyondHorizon(slot, horizonMs);
    return {
      ...slot,
      beyondHorizon,
      bookable: !slot.closed && isBookable({ startMs: slot.startMs, overlapping: slot.reservations.length, beyondHorizon, reservationsKnown: !slot.checking }, nowMs),
    };
  });
}

/** Gives each slot its state from the reservations that overlap it. */
export function overlayReservations(
  slots: readonly ScheduleSlot[],
  reservations: readonly ScheduleReservation[],
  options: OverlayOptions,
): StatefulSlot[] {
  const nowMs = requireMs(options.now, 'now');
  const horizonMs =
    options.horizonEnd !== undefined ? requireMs(options.horizonEnd, 'horizonEnd') : bookingHorizonEnd(nowMs, options.horizonDays);
  const checking = options.reservationsComplete === false;
  const all = normalise(reservations, options.resourceId);
  const window = options.activationMinutes ?? null;
  const daysAhead = options.daysAhead ?? null;
  // Released bookings are set aside: they occupy nothing, and only name their slot.
  const releasedList = window === null ? [] : all.filter((r) => wasReleased({ startMs: r.startMs, endMs: r.endMs, status: r.source.status }, window, nowMs));
  const relevant = releasedList.length === 0 ? all : all.filter((r) => !releasedList.includes(r));
  const maxLength = relevant.reduce((max, r) => Math.max(max, r.endMs - r.startMs), 0);
  const result: StatefulSlot[] = [];
  for (const slot of slots) {
    // Candidates start before the slot ends and no earlier than the longest reservation allows.
    const touching: SlotReservation[] = [];
    for (let i = firstStartingAtOrAfter(relevant, slot.endMs) - 1; i >= 0; i--) {
      const r = relevant[i]!;
      if (r.startMs < slot.startMs - maxLength) break;
      if (r.endMs > slot.startMs) touching.push(toSlotReservation(r, slot, options));
    }
    touching.reverse();
    const reservation = pickPrimary(touching, slot);
    const isPast = slot.endMs <= nowMs;
    const state: SlotState = reservation
      ? reservation.ownerType === 'Service'
        ? 'maintenance'
        : reservation.status === 'Used'
          ? 'used'
          : 'booked'
      : checking
        ? 'loading'
        : isPast
          ? 'past'
          : 'free';
    // The horizon is applied here rather than by applyBookingHorizon: one object per slot, not two
    // (a week grid is built on every warm read).
    const beyondSystem = isBeyondHorizon(slot, horizonMs);
    const daysAheadRule = daysAhead && !beyondSystem && isBeyondDaysAhead(slot.startMs, nowMs, daysAhead.days, slot.timeZone) ? daysAhead : undefined;
    const beyondHorizon = beyondSystem || daysAheadRule !== undefined;
    result.push({
      // Field by field: `{ ...slot, state, … }` cost ~15 µs per slot in V8 (the spread's copy then
      // takes a slow path for each added property), 1 ms of every week grid; this costs ~0.05 µs.
      id: slot.id,
      startTime: slot.startTime,
      endTime: slot.endTime,
      startMs: slot.startMs,
      endMs: slot.endMs,
      lengthMinutes: slot.lengthMinutes,
      scheduleDay: slot.scheduleDay,
      scheduleIndex: slot.scheduleIndex,
      timeZone: slot.timeZone,
      dayIndex: slot.dayIndex,
      date: slot.date,
      startLabel: slot.startLabel,
      endLabel: slot.endLabel,
      endsNextDay: slot.endsNextDay,
      startMinute: slot.startMinute,
      endMinute: slot.endMinute,
      state,
      ownerLabel: state === 'booked' || state === 'used' ? (reservation?.ownerLabel ?? null) : null,
      reservation,
      reservations: touching,
      isPast,
      isCurrent: slot.startMs <= nowMs && nowMs < slot.endMs,
      beyondHorizon,
      bookable: isBookable({ startMs: slot.startMs, overlapping: touching.length, beyondHorizon: beyondSystem, beyondDaysAhead: daysAheadRule?.days, reservationsKnown: !checking }, nowMs),
      checking,
    });
    if (daysAheadRule) result[result.length - 1]!.daysAheadRule = daysAheadRule;
    if (releasedList.length > 0) {
      const released = releasedList.find((r) => r.startMs < slot.endMs && r.endMs > slot.startMs);
      if (released) result[result.length - 1]!.released = toSlotReservation(released, slot, options);
    }
  }
  return result;
}

interface NormalisedReservation {
  source: ScheduleReservation;
  startMs: number;
  endMs: number;
}

function normalise(reservations: readonly ScheduleReservation[], resourceId: string | undefined): NormalisedReservation[] {
  const list: NormalisedReservation[] = [];
  for (const source of reservations) {
    if (resourceId !== undefined && source.resourceId !== resourceId) continue;
    const startMs = toMs(source.startTime);
    const endMs = toMs(source.endTime);
    // An unreadable or empty interval cannot occupy anything.
    if (!Number.isFinite(startMs) || !Number.isFinite(endMs) || endMs <= startMs) continue;
    list.push({ source, startMs, endMs });
  }
  return list.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
}

/** Index of the first reservation (sorted by start) whose start is >= ms. */
function firstStartingAtOrAfter(list: readonly NormalisedReservation[], ms: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.startMs < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function toSlotReservation(r: NormalisedReservation, slot: ScheduleSlot, options: OverlayOptions): SlotReservation {
  const { source } = r;
  const label = source.ownerType === 'Service' ? null : (options.ownerLabel?.(source) ?? defaultOwnerLabel(source.ownerType));
  return {
    id: source.id,
    ownerType: source.ownerType,
    status: source.status,
    userId: source.userId,
    ownerId: source.ownerId,
    startMs: r.startMs,
    endMs: r.endMs,
    startLabel: clock(wallClock(r.startMs, slot.timeZone)),
    endLabel: clock(wallClock(r.endMs, slot.timeZone)),
    ownerLabel: label,
    coverage: r.startMs <= slot.startMs && r.endMs >= slot.endMs ? 'full' : 'partial',
  };
}

function defaultOwnerLabel(ownerType: OwnerType): Owner {
  return ownerType === 'Group' ? { kind: 'someApartment' } : ownerType === 'Unknown' ? { kind: 'unknownType' } : { kind: 'someResident' };
}

function rank(r: SlotReservation): number {
  if (r.ownerType === 'Service') return 0;
  if (r.status === 'Used') return 1;
  return 2;
}

function pickPrimary(touching: SlotReservation[], slot: ScheduleSlot): SlotReservation | null {
  let best: SlotReservation | null = null;
  for (const r of touching) {
    if (!best) {
      best = r;
      continue;
    }
    const byRank = rank(r) - rank(best);
    if (byRank < 0 || (byRank === 0 && overlap(r, slot) > overlap(best, slot))) best = r;
  }
  return best;
}

function overlap(r: SlotReservation, slot: ScheduleSlot): number {
  return Math.min(r.endMs, slot.endMs) - Math.max(r.startMs, slot.startMs);
}
