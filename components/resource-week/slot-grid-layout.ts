// Pure layout for the slot grid (tested without rendering); its words are in ./slot-words.ts.
import type { Owner, StatefulSlot, WeekInfo } from '@/lib/schedule';

export interface PlacedSlot {
  slot: StatefulSlot;
  /** Offset from the top of the day column and height, in px, for the side-by-side layout. */
  top: number;
  height: number;
}

export interface GridColumn {
  day: WeekInfo['days'][number];
  isToday: boolean;
  slots: PlacedSlot[];
}

export interface GridLayout {
  /** Local wall-clock minutes the columns span (whole hours around the slots; long empty stretches collapsed). */
  rangeStart: number;
  rangeEnd: number;
  heightPx: number;
  /** Hour marks for the time axis: minute from the day's midnight and label ("07:00", "01:00" after midnight). */
  hours: { minute: number; top: number; label: string }[];
  /** Where a long stretch without slots was collapsed (top of the break, px). */
  breaks: { top: number }[];
  columns: GridColumn[];
}

export const DEFAULT_PX_PER_MINUTE = 0.75;
/** Short slots still get room for two lines of text. */
export const MIN_SLOT_HEIGHT_PX = 40;

/** Stretches of at least this many minutes without any slot are collapsed into a break. */
export const COLLAPSE_GAP_MINUTES = 180;
export const BREAK_PX = 20;

export function slotGridLayout(
  week: WeekInfo,
  slots: readonly StatefulSlot[],
  nowMs: number,
  pxPerMinute: number = DEFAULT_PX_PER_MINUTE,
): GridLayout {
  // Whole hours covered by slots (wall-clock minutes of their start day), merged into ranges.
  const spans = slots
    .map((slot) => [Math.floor(slot.startMinute / 60) * 60, Math.ceil(slot.endMinute / 60) * 60] as const)
    .sort((a, b) => a[0] - b[0]);
  const ranges: [number, number][] = [];
  for (const [start, end] of spans) {
    const last = ranges[ranges.length - 1];
    if (last && start - last[1] < COLLAPSE_GAP_MINUTES) last[1] = Math.max(last[1], end);
    else ranges.push([start, end]);
  }
  if (ranges.length === 0) ranges.push([7 * 60, 22 * 60]);
  // Piecewise-linear minute → px: ranges at full scale, a fixed-height break between them.
  const offsets: number[] = [];
  let y = 0;
  ranges.forEach(([start, end], i) => {
    if (i > 0) y += BREAK_PX;
    offsets.push(y);
    y += (end - start) * pxPerMinute;
  });
  const toPx = (minute: number): number => {
    for (let i = ranges.length - 1; i >= 0; i--) {
      const [start] = ranges[i]!;
      if (minute >= start) return offsets[i]! + (minute - start) * pxPerMinute;
    }
    return 0;
  };
  const hours: GridLayout['hours'] = [];
  ranges.forEach(([start, end], i) => {
    // The last hour before a break would collide with the first after it; the break marks it.
    const last = i < ranges.length - 1 ? end - 60 : end;
    for (let minute = start; minute <= last; minute += 60) {
      hours.push({ minute, top: toPx(minute), label: `${String((minute / 60) % 24).padStart(2, '0')}:00` });
    }
  });
  const breaks = ranges.slice(1).map((_, i) => ({ top: offsets[i + 1]! - BREAK_PX }));
  const columns: GridColumn[] = week.days.map((day) => ({
    day,
    isToday: day.startMs <= nowMs && nowMs < day.endMs,
    slots: slots
      .filter((slot) => slot.date === day.date)
      .sort((a, b) => a.startMs - b.startMs)
      .map((slot) => {
        const top = toPx(slot.startMinute);
        return { slot, top, height: Math.max(MIN_SLOT_HEIGHT_PX, toPx(slot.endMinute) - top - 2) };
      }),
  }));
  return { rangeStart: ranges[0]![0], rangeEnd: ranges[ranges.length - 1]![1], heightPx: y, hours, breaks, columns };
}

/** Keys of the `slot.state` catalogue entries a slot can show as its visible state word. */
export type VisibleStateKey = 'free' | 'freeReleased' | 'notYetBookable' | 'cancelling' | 'wasBooked' | 'booked' | 'pendingNow' | 'used' | 'maintenance' | 'past' | 'loading';

/** What a slot shows: its state word (a catalogue key under `slot.state`) and, when booked or used, who holds it. */
export function slotVisibleState(slot: StatefulSlot): { title: VisibleStateKey; detail: Owner | string | null } {
  switch (slot.state) {
    case 'free':
      if (slot.beyondHorizon && !slot.isPast) return { title: 'notYetBookable', detail: null };
      // A booking the service released (not activated in time): free again, and said so.
      return { title: slot.released ? 'freeReleased' : 'free', detail: null };
    case 'booked':
      if (slot.pending?.kind === 'cancel') return { title: 'cancelling', detail: slot.ownerLabel };
      // An ended booking is history, not a booking to act on: say so in words, not only colour.
      return { title: slot.isPast ? 'wasBooked' : 'booked', detail: slot.ownerLabel };
    case 'pending':
      return { title: 'pendingNow', detail: slot.ownerLabel };
    case 'used':
      return { title: 'used', detail: slot.ownerLabel };
    case 'maintenance':
      return {
        title: 'maintenance',
        detail: slot.reservation?.coverage === 'partial' ? `${slot.reservation.startLabel}–${slot.reservation.endLabel}` : null,
      };
    case 'past':
      return { title: 'past', detail: null };
    case 'loading':
      return { title: 'loading', detail: null };
  }
}

/**
 * The day a phone shows first: the day of the slot Tab reaches first (the running or next one, so
 * the grid's one Tab stop is visible), else today, else Monday.
 */
export function defaultPhoneDay(columns: readonly GridColumn[], activeId: string | null): number {
  const active = columns.findIndex((c) => c.slots.some((p) => p.slot.id === activeId));
  if (active >= 0) return active;
  return Math.max(0, columns.findIndex((c) => c.isToday));
}

/** The slot that should be reachable by Tab first: the running or next slot, else the first. */
export function defaultActiveSlotId(slots: readonly StatefulSlot[]): string | null {
  const sorted = [...slots].sort((a, b) => a.startMs - b.startMs);
  return (sorted.find((s) => !s.isPast) ?? sorted[0])?.id ?? null;
}
