import { msg, type Message } from '@/lib/i18n/message';
import type { Holder, Refusal } from './types';
import { apartmentNumber } from '@/lib/i18n/format';

export const DEFAULT_BOOKING_QUOTA = 2;

/**
 * The service refuses a booking (QuotaExceeded) when the apartment (user group) already holds its
 * quota of future bookings in the room: counting its known future bookings and its open requests
 * here refuses it before anything is sent, instead of a "pending" that then fails.
 */
export function isWithinQuota(held: number, quota: number): boolean {
  return held < quota;
}

/**
 * "Apartment 1203 already holds 2 of 2 future bookings in Tvättstuga 1; the service would refuse
 * another." — the apartment, else the resident's name, else "this resident".
 */
export function quotaExceeded(who: Partial<Holder>, resource: string, held: number, quota: number): Refusal {
  const holder = who.apartment ? 'apartment' : who.name ? 'resident' : 'unknown';
  return {
    rule: 'within-quota',
    code: 'unprocessable_entity',
    message: msg('rules.quotaExceeded', { holder, apartment: apartmentNumber(who.apartment), name: who.name ?? '', resource, held, quota }),
  };
}

/** The usage as a Message: "1 of 2 future bookings in Tvättstuga 1" (`rules.quotaUsage`). */
export function quotaUsageMessage(held: number, quota: number, resource: string): Message {
  return msg('rules.quotaUsage', { held, quota, resource });
}

/** "1 of 2 future bookings in Tvättstuga 1". */
export function quotaUsage(held: number, quota: number, resource: string): string {
  return `${held} of ${quota} future booking${quota === 1 ? '' : 's'} in ${resource}`;
}
