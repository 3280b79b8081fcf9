import { msg } from '@/lib/i18n/message';
import type { Refusal, SlotWords } from './types';

/**
 * A slot's state is known only once every reservation of the system has been read. A first load
 * reads them page by page in no order (service-notes C), so a slot none of the pages read so far
 * touches may still be taken: until the load is complete no slot is free, neither in the grid
 * (never offered) nor in the handler (refused, to be tried again in a moment).
 */
export function isStateKnown(reservationsComplete: boolean): boolean {
  return reservationsComplete;
}

export function stillChecking(words: SlotWords): Refusal {
  return { rule: 'reservations-known', code: 'service_unavailable', message: msg('rules.stillChecking', { slot: words.slot, resource: words.resource }) };
}
