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
 * own bookings in it (bookings made outside the portal are not blocked: see the README).
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
