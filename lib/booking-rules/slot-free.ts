import { msg } from '@/lib/i18n/message';
import type { Refusal, SlotWords } from './types';

/**
 * A slot is free when no reservation overlaps any part of it (a booking, a used slot or a
 * maintenance window, in the mirror). Open portal requests are a separate check, made under the
 * resource's lock when the request is claimed (lib/reservations/lifecycle.ts).
 */
export function isSlotFree(overlappingReservations: number): boolean {
  return overlappingReservations === 0;
}

export function alreadyBooked(words: SlotWords): Refusal {
  return { rule: 'slot-free', code: 'conflict', message: msg('rules.alreadyBooked', { slot: words.slot, resource: words.resource }) };
}
