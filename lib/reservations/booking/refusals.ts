import 'server-only';
import type { Refusal } from '@/lib/booking-rules';
import { periodWords } from '@/lib/closures/period';
import { env } from '@/lib/env';
import { ApiError, type LocalizedValues } from '@/lib/errors/api-error';
import type { Locale } from '@/lib/i18n/config';
import { formatClock, formatDayTime } from '@/lib/i18n/format';
import { msg } from '@/lib/i18n/message';

/**
 * The wording of every refusal of a booking or cancellation, in one place: the rules
 * (lib/booking-rules) say which refusal; this module turns it into the ApiError answered, with the
 * slot (and a closure's period) in the language of whoever is answered.
 */

/** "tisdag 24 november kl. 07:00–10:00" / "Tuesday 24 November at 07:00–10:00". */
export function slotWords(startMs: number, endMs: number, timeZone: string, locale: Locale = env.PORTAL_DEFAULT_LOCALE): string {
  return `${formatDayTime(startMs, timeZone, locale)}–${formatClock(endMs, timeZone)}`;
}

/** The slot's words, made again in the language of whoever is answered. */
export function slotIn(startMs: number, endMs: number, timeZone: string) {
  return (locale: Locale) => ({ slot: slotWords(startMs, endMs, timeZone, locale) });
}

/** A closure's period, in the language of whoever is answered. */
export function closurePeriodIn(closure: { startMs: number; endMs: number }, timeZone: string) {
  return (locale: Locale) => periodWords(closure.startMs, closure.endMs, timeZone, locale);
}

/** A refusal from the rules as the error answered. */
export function refusalError(refusal: Refusal, localValues?: LocalizedValues): ApiError {
  // Not refused for good (the slot is still being checked): the client may try again shortly.
  const headers: Record<string, string> = refusal.code === 'service_unavailable' ? { 'Retry-After': '5' } : {};
  return new ApiError(refusal.code, refusal.message, headers, localValues);
}

export function refuse(refusal: Refusal, localValues?: LocalizedValues): never {
  throw refusalError(refusal, localValues);
}

/** The mirror has not read the system yet. */
export const stillLoading = () => new ApiError('service_unavailable', msg('errors.stillLoading'), { 'Retry-After': '5' });

export const deviceIdMismatch = () => new ApiError('bad_request', msg('errors.deviceIdMismatch'));

export const noSuchResource = (resourceId: string, system: { name: string }) =>
  new ApiError('not_found', msg('errors.noSuchResourceIn', { resourceId, system: system.name }));

export const residentNotInSystem = (residentUserId: string, system: { name: string }) =>
  new ApiError('unprocessable_entity', msg('errors.residentNotInSystem', { residentUserId, system: system.name }));

export const noSuchBooking = (reservationId: string, system: { name: string }) =>
  new ApiError('not_found', msg('errors.noSuchBooking', { reservationId, system: system.name }));

/** An open request for the same slot: 409. */
export const bookingOnItsWay = (words: { slot: string; resource: string }, inLanguage: LocalizedValues) =>
  new ApiError('conflict', msg('errors.bookingOnItsWay', { slot: words.slot, resource: words.resource }), {}, inLanguage);

/** An open request for the same reservation: 409. */
export const cancellationOnItsWay = (slot: string, inLanguage: LocalizedValues) => new ApiError('conflict', msg('errors.cancellationOnItsWay', { slot }), {}, inLanguage);

/** A key reused for another request is a client bug: say so rather than answer the wrong thing. */
export const idempotencyKeyReused = () => new ApiError('unprocessable_entity', msg('errors.idempotencyKeyReused'));
