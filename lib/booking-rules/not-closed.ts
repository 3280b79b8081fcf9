import { msg } from '@/lib/i18n/message';
import type { Refusal, SlotWords } from './types';

/** A room closure as the rule sees it (lib/closures reads them: not lifted, not yet over). */
export interface ClosureWindow {
  id: string;
  resourceIds: readonly string[];
  startMs: number;
  endMs: number;
  reason: string;
}

/**
 * The closure that closes a slot of `resourceId`: the first one naming the room whose period
 * overlaps any part of [startMs, endMs); null when the slot is not closed. The portal refuses its
 * own bookings in it (bookings made outside the portal are not blocked: see docs/using-the-portal.md, "Room closures").
 */
export function closureOver<C extends ClosureWindow>(
  slot: { startMs: number; endMs: number },
  resourceId: string,
  closures: readonly C[],
): C | null {
  for (const closure of closures) {
    if (closure.startMs < slot.endMs && closure.endMs > slot.startMs && closure.resourceIds.includes(resourceId)) return closure;
  }
  return null;
}

/** The refusal of a booking in a closed room; `period` is the closure's period in words. */
export function roomClosed(words: SlotWords, reason: string, period: string): Refusal {
  return { rule: 'not-closed', code: 'unprocessable_entity', message: msg('rules.roomClosed', { slot: words.slot, resource: words.resource, reason, period }) };
}

/**
 * The grid's side of the rule: marks each slot of `resourceId` that a closure overlaps as closed
 * (with the closure's reason and period) and not bookable. In place: the slots are the caller's
 * own copy, built for this read.
 */
export function markClosedSlots(
  slots: { startMs: number; endMs: number; bookable: boolean; closed?: { closureId: string; reason: string; startMs: number; endMs: number } | null }[],
  resourceId: string,
  closures: readonly ClosureWindow[],
): void {
  const mine = closures.filter((c) => c.resourceIds.includes(resourceId));
  if (mine.length === 0) return;
  for (const slot of slots) {
    const closure = closureOver(slot, resourceId, mine);
    if (!closure) continue;
    slot.closed = { closureId: closure.id, reason: closure.reason, startMs: closure.startMs, endMs: closure.endMs };
    slot.bookable = false;
  }
}

/**
 * markClosedSlots without touching `slots`: the slots a closure overlaps are copied and marked,
 * the others kept as they are (for callers whose slots are shared between reads, such as the
 * building view's held week).
 */
export function withClosedSlots<S extends { startMs: number; endMs: number; bookable: boolean; closed?: { closureId: string; reason: string; startMs: number; endMs: number } | null }>(
  slots: readonly S[],
  resourceId: string,
  closures: readonly ClosureWindow[],
): S[] {
  const mine = closures.filter((c) => c.resourceIds.includes(resourceId));
  if (mine.length === 0) return slots as S[];
  return slots.map((slot) => {
    const closure = closureOver(slot, resourceId, mine);
    return closure ? { ...slot, closed: { closureId: closure.id, reason: closure.reason, startMs: closure.startMs, endMs: closure.endMs }, bookable: false } : slot;
  });
}
