import 'server-only';
import { currentStatus, type StatefulSlot } from '@/lib/schedule';
import { isoDate, wallClock } from '@/lib/schedule/zoned';
import type { SystemPublic } from '@/lib/systems/schemas';
import { loadBuildingSpan, type BuildingRoom } from '@/lib/views/building';
import type { ViewDeps } from '@/lib/views/freshness';
import type { ActiveDisplay } from './displays';

/**
 * What one slot of a display's strip shows. Deliberately poorer than the grid's slot: no owner but
 * an apartment number (and only when the display was set to show them), no request, no reason of a
 * booking; a closure's reason is the manager's notice to everyone.
 */
export type DisplaySlotState = 'past' | 'free' | 'taken' | 'in-use' | 'maintenance' | 'closed' | 'unavailable';

export interface DisplaySlot {
  startMs: number;
  endMs: number;
  state: DisplaySlotState;
  /** "1203", only on a display that shows apartments and only for an apartment's booking. */
  apartment?: string;
  /** A closure's reason. */
  reason?: string;
}

export type DisplayNow =
  | { kind: 'free'; untilMs: null }
  /** No slot of the schedule runs now (between slots, after the last of the day). */
  | { kind: 'none'; untilMs: null }
  | { kind: 'in-use' | 'maintenance'; untilMs: number }
  | { kind: 'closed'; untilMs: number; reason: string };

export interface DisplayRoom {
  id: string;
  name: string;
  now: DisplayNow;
  /** The next slot a booking may be requested for, today or tomorrow; null when none is. */
  nextFree: { startMs: number; endMs: number } | null;
  /** Today's and tomorrow's slots (local days of the system's zone). */
  days: { date: string; slots: DisplaySlot[] }[];
}

export interface DisplayScreen {
  name: string;
  timeZone: string;
  nowMs: number;
  /** When the portal's copy of the bookings was last read from the service (ISO); null while loading. */
  refreshedAt: string | null;
  loading: boolean;
  rooms: DisplayRoom[];
}

/** The date `delta` calendar days after `date` (yyyy-MM-dd). */
function shiftDate(date: string, delta: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + delta)).toISOString().slice(0, 10);
}

function slotOf(slot: StatefulSlot, showApartments: boolean): DisplaySlot {
  const base = { startMs: slot.startMs, endMs: slot.endMs };
  if (slot.closed) return { ...base, state: 'closed', reason: slot.closed.reason };
  if (slot.state === 'maintenance') return { ...base, state: 'maintenance' };
  const taken = slot.state === 'booked' || slot.state === 'used' || slot.state === 'pending';
  if (taken) {
    const owner = slot.ownerLabel;
    const apartment = showApartments && owner?.kind === 'apartment' ? owner.apartment : undefined;
    const state: DisplaySlotState = slot.isCurrent ? 'in-use' : slot.isPast ? 'past' : 'taken';
    return apartment ? { ...base, state, apartment } : { ...base, state };
  }
  if (slot.isPast) return { ...base, state: 'past' };
  if (slot.bookable || (slot.isCurrent && slot.state === 'free')) return { ...base, state: 'free' };
  return { ...base, state: 'unavailable' };
}

/**
 * "Free now" only when a slot runs now and its strip says free: not between slots or after the
 * day's last (nothing to walk in to), not in a slot an open request or an unused booking holds.
 */
function nowOf(slots: readonly StatefulSlot[], nowMs: number): DisplayNow {
  const running = slots.find((s) => s.startMs <= nowMs && nowMs < s.endMs);
  if (running?.closed) return { kind: 'closed', untilMs: running.closed.endMs, reason: running.closed.reason };
  const status = currentStatus(slots, nowMs);
  if (status.kind !== 'free' && status.untilMs !== null) return { kind: status.kind, untilMs: status.untilMs };
  if (!running) return { kind: 'none', untilMs: null };
  const state = slotOf(running, false).state;
  if (state === 'free') return { kind: 'free', untilMs: null };
  if (state === 'in-use' || state === 'maintenance') return { kind: state, untilMs: running.endMs };
  return { kind: 'none', untilMs: null };
}

/** One room's screen from its slots of yesterday to tomorrow (yesterday's for a booking still running after midnight). */
export function displayRoomOf(room: Pick<BuildingRoom, 'id' | 'name'>, slots: readonly StatefulSlot[], days: readonly string[], timeZone: string, nowMs: number, showApartments: boolean): DisplayRoom {
  const byDay = new Map(days.map((d) => [d, [] as DisplaySlot[]]));
  for (const slot of slots) byDay.get(isoDate(wallClock(slot.startMs, timeZone)))?.push(slotOf(slot, showApartments));
  const next = slots.find((s) => s.bookable && byDay.has(isoDate(wallClock(s.startMs, timeZone))));
  return {
    id: room.id,
    name: room.name,
    now: nowOf(slots, nowMs),
    nextFree: next ? { startMs: next.startMs, endMs: next.endMs } : null,
    days: days.map((date) => ({ date, slots: byDay.get(date) ?? [] })),
  };
}

/**
 * The screen of a display: for each of its rooms, what is happening now, the next free slot, and
 * today's and tomorrow's slots, computed by the building view's code (the same slots, states,
 * closures and open requests as a manager's grid) and stripped to what a public screen may show.
 */
export async function loadDisplayScreen(deps: ViewDeps, system: SystemPublic, display: ActiveDisplay): Promise<DisplayScreen> {
  const nowMs = (deps.now?.() ?? new Date()).getTime();
  const today = isoDate(wallClock(nowMs, system.timeZone));
  const days = [today, shiftDate(today, 1)];
  // From yesterday: a booking that started before midnight may still be running. One read of the
  // mirror for the three days (one or two ISO weeks), with the same now as the screen's.
  const span = await loadBuildingSpan({ ...deps, now: () => new Date(nowMs) }, system, { first: shiftDate(today, -1), last: days[1]! });
  const shown = display.resourceIds ? new Set(display.resourceIds) : null;
  const rooms = span.rooms
    .filter((room) => !shown || shown.has(room.id))
    .map((room) => displayRoomOf(room, room.slots, days, system.timeZone, nowMs, display.showApartments));
  return {
    name: display.name,
    timeZone: system.timeZone,
    nowMs,
    refreshedAt: span.freshness.status === 'ready' ? span.freshness.refreshedAt : null,
    loading: span.freshness.status === 'loading',
    rooms,
  };
}
