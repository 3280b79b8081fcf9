import { msg } from '@/lib/i18n/message';
import type { Holder, Refusal } from './types';
import { apartmentNumber } from '@/lib/i18n/format';

/**
 * A resident may book the resources the service lists for them. Unknown authorizations (the
 * service did not say) are not a refusal: the service checks them and answers UserNotAuthorized.
 */
export function isResidentAuthorized(reservationResources: readonly string[] | null, resourceId: string): boolean {
  return reservationResources === null || reservationResources.includes(resourceId);
}

/** "Apartment 1203 (Eva) is not allowed to book Tvättstuga 1.", or the resident's name alone without an apartment. */
export function notAuthorized(who: Holder, resource: string): Refusal {
  return {
    rule: 'resident-authorized',
    code: 'unprocessable_entity',
    message: msg('rules.notAuthorized', { hasApartment: who.apartment ? 'yes' : 'no', apartment: apartmentNumber(who.apartment), name: who.name, resource }),
  };
}
