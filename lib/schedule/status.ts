import { expandRange } from './expand';
import { type OverlayOptions, type SlotReservation, type StatefulSlot, overlayReservations } from './overlay';
import { type InstantInput, type Owner, type ScheduleBasis, type ScheduleReservation, type WeekScheduleInput, requireMs } from './types';
import { clock, isoDate, wallClock } from './zoned';

const DAY_MS = 86_400_000;

export type NowKind = 'free' | 'in-use' | 'maintenance';

export interface NowStatus {
  kind: NowKind;
  /** When the current use or maintenance ends, following back-to-back bookings; null when free. */
  untilMs: number | null;
  /**
   * When it ends in the system's zone, locale-free: the clock time "10:00" and, when that is on
   * another local day than now, its weekday (0 = Monday) for a component to name ("tis 02:00").
   * Null when free.
   */
  until: { clock: string; weekday: number | null } | null;
  /** Holder of the running booking, e.g. "apartment 1203". */
  ownerLabel: Owner | null;
  /** The slot running now, if any. */
  slot: StatefulSlot | null;
}

/**
 * What is happening on a resource at `now`. `slots` must include the slot running now and
 * those following it (e.g. overlay the current and previous weeks, or use resourceNowStatus).
 * A reservation only covering part of the slot counts only while it runs.
 */
export function currentStatus(slots: readonly StatefulSlot[], now: InstantInput): NowStatus {
  const nowMs = requireMs(now, 'now');
  const timeZone = slots[0]?.timeZone;
  const slot = slots.find((s) => s.startMs <= nowMs && nowMs < s.endMs) ?? null;
  const running = slot ? runningAt(slot, nowMs) : null;
  if (!running || !timeZone) return { kind: 'free', untilMs: null, until: null, ownerLabel: null, slot };

  const kind: NowKind = running.ownerType === 'Service' ? 'maintenance' : 'in-use';
  let untilMs = running.endMs;
  // Back-to-back bookings of the same holder keep the room in use; follow them (bounded by the
  // slots given). Another apartment's booking right after is theirs, not this one's: stop there.
  for (let guard = 0; guard < slots.length; guard++) {
    const next = slots.find((s) => s.startMs <= untilMs && untilMs < s.endMs);
    const continuing = next ? continuationAt(next, untilMs, running) : null;
    if (!continuing || continuing.endMs <= untilMs) break;
    untilMs = continuing.endMs;
  }
  return {
    kind,
    untilMs,
    until: untilOf(nowMs, untilMs, timeZone),
    ownerLabel: kind === 'in-use' ? running.ownerLabel : null,
    slot,
  };
}

/** currentStatus computed straight from a resource's schedule and reservations. */
export function resourceNowStatus(input: {
  schedule: WeekScheduleInput;
  reservations: readonly ScheduleReservation[];
  now: InstantInput;
  timeZone: string;
  /** What the schedule's minutes mean (default 'utc'). */
  basis?: ScheduleBasis;
  resourceId?: string;
  ownerLabel?: OverlayOptions['ownerLabel'];
}): NowStatus {
  const nowMs = requireMs(input.now, 'now');
  // Any slot running now started within the last day; a day ahead covers back-to-back bookings.
  const slots = expandRange(input.schedule, nowMs - DAY_MS, nowMs + DAY_MS, input.timeZone, input.basis);
  const overlaid = overlayReservations(slots, input.reservations, {
    now: nowMs,
    resourceId: input.resourceId,
    ownerLabel: input.ownerLabel,
  });
  return currentStatus(overlaid, nowMs);
}

function runningAt(slot: StatefulSlot, ms: number): SlotReservation | null {
  const covering = slot.reservations.filter((r) => r.startMs <= ms && ms < r.endMs);
  return covering.find((r) => r.ownerType === 'Service') ?? covering[0] ?? null;
}

/** The reservation at `ms` that continues `running`: maintenance after maintenance, or the same holder's booking. */
function continuationAt(slot: StatefulSlot, ms: number, running: SlotReservation): SlotReservation | null {
  const covering = slot.reservations.filter((r) => r.startMs <= ms && ms < r.endMs);
  if (running.ownerType === 'Service') return covering.find((r) => r.ownerType === 'Service') ?? null;
  // A maintenance window interrupts the use even when the same holder booked on.
  if (covering.some((r) => r.ownerType === 'Service')) return null;
  return covering.find((r) => sameHolder(r, running)) ?? null;
}

/** Same owner (apartment group or user); without an owner id, the same user. */
function sameHolder(a: SlotReservation, b: SlotReservation): boolean {
  if (a.ownerType !== b.ownerType) return false;
  if (a.ownerId !== null || b.ownerId !== null) return a.ownerId === b.ownerId;
  return a.userId !== null && a.userId === b.userId;
}

function untilOf(nowMs: number, untilMs: number, timeZone: string): NonNullable<NowStatus['until']> {
  const now = wallClock(nowMs, timeZone);
  const until = wallClock(untilMs, timeZone);
  return { clock: clock(until), weekday: isoDate(now) === isoDate(until) ? null : until.weekday };
}
