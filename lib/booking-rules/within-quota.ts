import type { Refusal } from './types';

export const DEFAULT_BOOKING_QUOTA = 2;

/**
 * The service refuses a booking (QuotaExceeded) when the apartment (user group) already holds its
 * quota of future bookings in the room: counting its known future bookings and its open requests
 * here refuses it before anything is sent, instead of a "pending" that then fails.
 */
export function isWithinQuota(held: number, quota: number): boolean {
  return held < quota;
}

const ordinals = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
/** "a third", "a 12th" (the quota may be up to 100). */
function nth(n: number): string {
  if (n <= ordinals.length) return `a ${ordinals[n - 1]}`;
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  // Read aloud: "an 8th", "an 11th", "an 18th", "an 80th"; otherwise "a".
  const vowel = String(n).startsWith('8') || n === 11 || n === 18;
  return `${vowel ? 'an' : 'a'} ${n}${suffix}`;
}

/** "Apartment 1203", or the resident's name when the apartment is not known. */
export function quotaExceeded(who: string, resource: string, held: number, quota: number): Refusal {
  return {
    rule: 'within-quota',
    code: 'unprocessable_entity',
    message: `${who} already holds ${held} of ${quota} future booking${quota === 1 ? '' : 's'} in ${resource}; the service would refuse ${nth(held + 1)}.`,
  };
}

/** "1 of 2 future bookings in Tvättstuga 1". */
export function quotaUsage(held: number, quota: number, resource: string): string {
  return `${held} of ${quota} future booking${quota === 1 ? '' : 's'} in ${resource}`;
}
