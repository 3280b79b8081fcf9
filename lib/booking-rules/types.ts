/** Why a booking or cancellation is refused, in a sentence for the manager, with its HTTP meaning. */
export interface Refusal {
  rule: RuleName;
  code: 'unprocessable_entity' | 'conflict';
  message: string;
}

export type RuleName =
  | 'slot-on-schedule'
  | 'not-started'
  | 'within-booking-horizon'
  | 'slot-free'
  | 'resident-authorized'
  | 'within-quota'
  | 'cancellable-owner';

/** How the slot and resource are named in sentences ("Mon 24 Nov 07:00–10:00", "Tvättstuga 1"). */
export interface SlotWords {
  slot: string;
  resource: string;
}
