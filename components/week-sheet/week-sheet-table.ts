// The printed week sheet's table as data (tested without rendering): one row per slot time found in
// the week, one column per day, and in each cell what the door should say. Its words are in
// ./week-sheet.tsx (sheetEntryText).
import type { Owner, StatefulSlot, WeekInfo } from '@/lib/schedule';

/**
 * What one slot of a cell shows: free (room to write by hand), booked with its holder (a booking
 * that has been used stays booked: the sheet is the week's record), or maintenance (with its own
 * times when the window covers only part of the slot).
 */
export type SheetEntry =
  | { kind: 'free' }
  | { kind: 'booked'; owner: Owner | null }
  | { kind: 'maintenance'; partial: { start: string; end: string } | null }
  /** A room closure over a slot not booked (lib/closures): "Closed: reason" on the door. */
  | { kind: 'closed'; reason: string };

export interface SheetRow {
  /** The row's slot time, unique in the table: "07:00|10:00|" ("|next" when it ends the next day). */
  key: string;
  startLabel: string;
  endLabel: string;
  endsNextDay: boolean;
  /** One cell per day of the week (Monday first); an empty list is a day without this slot time (shaded). */
  cells: SheetEntry[][];
}

export function sheetEntryOf(slot: StatefulSlot): SheetEntry {
  if (slot.closed && (slot.state === 'free' || slot.state === 'past' || slot.state === 'pending')) return { kind: 'closed', reason: slot.closed.reason };
  switch (slot.state) {
    case 'booked':
    case 'used':
      return { kind: 'booked', owner: slot.ownerLabel };
    case 'maintenance': {
      const r = slot.reservation;
      return { kind: 'maintenance', partial: r && r.coverage === 'partial' ? { start: r.startLabel, end: r.endLabel } : null };
    }
    // A pending request is not a booking yet, and a past free slot was simply not booked.
    default:
      return { kind: 'free' };
  }
}

/**
 * The sheet's rows: the union of the week's slot times (by their local clock labels), earliest
 * first. Days whose slots differ — another schedule per weekday, or a DST change that moves a UTC
 * schedule's slots by an hour for part of the week — still share one table: a day without a
 * row's slot time gets an empty cell there. Two slots of one day with the same clock times (the
 * repeated hour of the autumn change) share a cell rather than a row.
 */
export function weekSheetRows(week: Pick<WeekInfo, 'days'>, slots: readonly StatefulSlot[]): SheetRow[] {
  const days = week.days.length;
  const rows = new Map<string, SheetRow & { order: [number, number] }>();
  for (const slot of slots) {
    if (slot.dayIndex < 0 || slot.dayIndex >= days) continue;
    const key = `${slot.startLabel}|${slot.endLabel}|${slot.endsNextDay ? 'next' : ''}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        key,
        startLabel: slot.startLabel,
        endLabel: slot.endLabel,
        endsNextDay: slot.endsNextDay,
        cells: Array.from({ length: days }, () => []),
        order: [slot.startMinute, slot.endMinute],
      };
      rows.set(key, row);
    }
    row.cells[slot.dayIndex]!.push(sheetEntryOf(slot));
  }
  return [...rows.values()]
    .sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1] || a.key.localeCompare(b.key))
    .map(({ order: _order, ...row }) => row);
}
