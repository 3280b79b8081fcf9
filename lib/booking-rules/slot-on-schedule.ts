import { msg } from '@/lib/i18n/message';
import type { Refusal, SlotWords } from './types';

/** A booking must name exactly one slot of the resource's schedule: its start and its end. */
export function isScheduledSlot(slot: { startMs: number; endMs: number } | undefined, startMs: number, endMs: number): boolean {
  return slot !== undefined && slot.startMs === startMs && slot.endMs === endMs;
}

export function notOnSchedule(words: SlotWords): Refusal {
  return { rule: 'slot-on-schedule', code: 'unprocessable_entity', message: msg('rules.notOnSchedule', { slot: words.slot, resource: words.resource }) };
}

/** The service lists no schedule (that the portal can read) for the room: it has no slot to book (issue 47). */
export function noListedSchedule(words: SlotWords): Refusal {
  return { rule: 'slot-on-schedule', code: 'unprocessable_entity', message: msg('rules.noListedSchedule', { slot: words.slot, resource: words.resource }) };
}
