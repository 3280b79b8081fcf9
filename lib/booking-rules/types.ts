import type { Message } from '@/lib/i18n/message';

/** Why a booking or cancellation is refused, as a sentence for the manager (`rules.*`, not yet in a language), with its HTTP meaning. */
export interface Refusal {
  rule: RuleName;
  /** service_unavailable: not refused for good, only until the portal knows more (try again). */
  code: 'unprocessable_entity' | 'conflict' | 'service_unavailable';
  message: Message;
}

export type RuleName =
  | 'slot-on-schedule'
  | 'not-started'
  | 'within-booking-horizon'
  | 'slot-free'
  | 'resident-authorized'
  | 'within-quota'
  | 'group-rules'
  | 'cancellable-owner'
  | 'not-closed'
  | 'reservations-known';

/**
 * How the slot and resource are named in sentences ("Mon 24 Nov 07:00–10:00", "Tvättstuga 1").
 * The slot's words depend on the reader's language: the handler renders them again per language
 * when it answers (lib/reservations/requests.ts).
 */
export interface SlotWords {
  slot: string;
  resource: string;
}

/** Who holds (or would hold) a booking: an apartment, named with its resident where known, or a resident alone. */
export interface Holder {
  apartment: string | null;
  name: string;
}
