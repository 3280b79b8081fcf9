import { msg } from '@/lib/i18n/message';
import type { Refusal, SlotWords } from './types';

/** A slot that has started can no longer be booked, nor a booking in it cancelled. */
export function hasStarted(slot: { startMs: number }, nowMs: number): boolean {
  return slot.startMs <= nowMs;
}

export function alreadyStarted(kind: 'create' | 'cancel', slot: SlotWords['slot']): Refusal {
  return {
    rule: 'not-started',
    code: 'unprocessable_entity',
    message: msg(kind === 'create' ? 'rules.startedBooking' : 'rules.startedCancellation', { slot }),
  };
}
