import { msg } from '@/lib/i18n/message';
import type { Refusal } from './types';

/**
 * Only residents' bookings (a user's or an apartment's) are cancelled here. A maintenance window
 * belongs to the service's admin tool, and an owner of a kind the portal does not know is left to it.
 */
export function cancellationRefusedFor(ownerType: string, slot: string): Refusal | null {
  if (ownerType === 'Service') return { rule: 'cancellable-owner', code: 'unprocessable_entity', message: msg('rules.maintenanceWindow', { slot }) };
  if (ownerType === 'User' || ownerType === 'Group') return null;
  return {
    rule: 'cancellable-owner',
    code: 'unprocessable_entity',
    message: msg('rules.unknownOwner', { slot }),
  };
}
