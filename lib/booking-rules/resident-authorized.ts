import type { Refusal } from './types';

/**
 * A resident may book the resources the service lists for them. Unknown authorizations (the
 * service did not say) are not a refusal: the service checks them and answers UserNotAuthorized.
 */
export function isResidentAuthorized(reservationResources: readonly string[] | null, resourceId: string): boolean {
  return reservationResources === null || reservationResources.includes(resourceId);
}

export function notAuthorized(who: string, resource: string): Refusal {
  return { rule: 'resident-authorized', code: 'unprocessable_entity', message: `${who} is not allowed to book ${resource}.` };
}
