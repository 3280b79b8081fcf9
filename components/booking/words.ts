import { useLocale, useTranslations } from 'next-intl';
import type { Locale } from '@/lib/i18n/config';
import type { RequestView } from '@/lib/events/types';
import { formatClock, formatDayLabel, apartmentNumber } from '@/lib/i18n/format';
import { renderReasonValues } from '@/lib/reservations/reasons';
import { wallClock } from '@/lib/schedule/zoned';

/** The reader's translator (whole catalogue) and language: what the pure wording functions here take. */
export interface Words {
  t: ReturnType<typeof useTranslations<never>>;
  locale: Locale;
}

export function useWords(): Words {
  return { t: useTranslations(), locale: useLocale() };
}

type LooseTranslate = (key: string, values?: Record<string, string | number>) => string;

/** A request's reason in the reader's language; an event from before reasons were messages keeps its words. */
export function reasonText(reason: RequestView['reason'] | string, { t, locale }: Words): string | null {
  if (!reason) return null;
  if (typeof reason === 'string') return reason;
  // Keys are checked where the reason is made (lib/reservations/reasons.ts).
  return (t as unknown as LooseTranslate)(reason.key, renderReasonValues(reason.values, locale));
}

/**
 * Whether a request names its room: 'yes' with a name, 'unlisted' when it has a room the service no
 * longer listed when it was asked (a cancellation records the name as null then), else 'no'.
 */
export function roomKnown(r: Pick<RequestView, 'resourceId' | 'resourceName'>): 'yes' | 'unlisted' | 'no' {
  if (r.resourceName) return 'yes';
  return r.resourceId && r.resourceName === null ? 'unlisted' : 'no';
}

/**
 * An anonymised resident (retention or erasure, issue 47) in the reader's language: "Resident in LGH
 * 1001" by the apartment's number (its own "LGH" dropped, never doubled), "Resident" without one.
 * The stored placeholder is in the portal's default language; this is what readers see instead.
 */
export function anonymisedResidentWords(apartment: string | null | undefined, { t }: Pick<Words, 't'>): string {
  const number = apartmentNumber(apartment);
  return number ? t('retention.placeholder.residentIn', { apartment: number }) : t('retention.placeholder.resident');
}

/** Who a request is for, mid-sentence: "apartment 1203", "Anna Berg", "a resident". */
export function residentWords(r: Pick<RequestView, 'residentApartment' | 'residentName'>, { t }: Words): string {
  if (r.residentApartment) return t('outcomes.resident.apartment', { apartment: apartmentNumber(r.residentApartment) });
  return r.residentName ?? t('outcomes.resident.unknown');
}

/** "Monday 24 November, 07:00–10:00" in the reader's language, or "a slot" for a request that names no time. */
export function requestWhen(r: Pick<RequestView, 'startTime' | 'endTime'>, timeZone: string, { t, locale }: Words): string {
  if (!r.startTime || !r.endTime) return t('outcomes.aSlot');
  const start = Date.parse(r.startTime);
  return t('outcomes.when', { day: formatDayLabel(wallClock(start, timeZone), locale), start: formatClock(start, timeZone), end: formatClock(Date.parse(r.endTime), timeZone) });
}
