'use client';

import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { useReservationRequest } from '@/components/resource-week/reservation-request';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorTextClass, mutedTextClass } from '@/components/ui/styles';
import { fetchJson } from '@/lib/client/fetch-json';
import { queryKeys } from '@/lib/client/query-keys';
import type { RequestView } from '@/lib/events/types';
import type { NextFreeView } from '@/lib/views/apartment-types';
import { formatDayLabel, formatList } from '@/lib/i18n/format';
import { wallClock } from '@/lib/schedule/zoned';
import { noticeText, useOutcomeNotices } from './outcome-notices';
import { useWords } from './words';
import { useErrorText } from '@/components/use-error-text';

export interface NextFreeSlotsProps {
  deviceId: string;
  groupId: string;
  /** Who a Book is for; null when the apartment has no known resident (nothing can be booked). */
  residentUserId: string | null;
  /** The filters as a query string ("kind=laundry&dayPart=evening"), '' for none. */
  search?: string;
  /** How many to ask for (the server's default is 5). */
  count?: number;
  /** The server's first answer for the unfiltered list (the apartment page renders it). */
  initial?: NextFreeView;
  timeZone: string;
  /** List how the bookings made here stand (off where the page has its own live notices). */
  showOutcomes?: boolean;
}

/** What GET …/apartments/{groupId}/next-free answers for these filters, and whether it may be offered. */
export function useNextFree({ deviceId, groupId, search = '', count, initial }: { deviceId: string; groupId: string; search?: string; count?: number; initial?: NextFreeView }) {
  const params = new URLSearchParams(search);
  if (count !== undefined) params.set('count', String(count));
  const query = params.toString();
  const result = useQuery({
    queryKey: queryKeys.apartmentNextFree(deviceId, groupId, query),
    queryFn: ({ signal }) => fetchJson<NextFreeView>(`/api/systems/${deviceId}/apartments/${groupId}/next-free${query ? `?${query}` : ''}`, { signal }),
    initialData: query === '' ? initial : undefined,
    initialDataUpdatedAt: query === '' ? initial?.generatedAt : undefined,
    placeholderData: (previous) => previous,
    // Opened in a dialog (no server answer to start from), read afresh: a booking made moments ago
    // may have taken a slot or filled a room's quota.
    refetchOnMount: initial ? true : 'always',
  });
  // Until that fresh read is in, a cached answer may offer what is gone: show none.
  const data = initial || result.isFetchedAfterMount ? result.data : undefined;
  return { result, data };
}

/**
 * Booking from a list of free slots: the request (its own Idempotency-Key, pending at once) and how
 * the requests made here stand, live. `onOutcome` runs for each update of one of them.
 */
export function useBookHere(onOutcome?: (request: RequestView) => void) {
  // A ref, not state: the 202's pending state is announced right after onAccepted, before a re-render.
  const mine = useRef(new Set<string>());
  const booking = useReservationRequest({ onAccepted: (request) => void mine.current.add(request.id) });
  const made = useOutcomeNotices((request) => mine.current.has(request.id), onOutcome);
  return { booking, made };
}

/**
 * The apartment's next free slots with a Book button each: one click sends the booking through the
 * normal flow (its own Idempotency-Key, pending at once), and the list says how the requests made
 * here stand, live. Shared by the apartment page and the slot dialog.
 */
export function NextFreeSlots({ deviceId, groupId, residentUserId, search = '', count, initial, timeZone, showOutcomes = true }: NextFreeSlotsProps) {
  const errorText = useErrorText();
  const { result, data } = useNextFree({ deviceId, groupId, search, count, initial });
  const { booking, made } = useBookHere();
  const slots = data?.slots ?? [];
  const words = useWords();
  const { t, locale } = words;
  return (
    <div className="flex flex-col gap-2">
      {result.isError ? <p className={errorTextClass}>{errorText(result.error)}</p> : null}
      {booking.error ? (
        <p role="alert" className={errorTextClass}>
          {booking.error}
        </p>
      ) : null}
      {showOutcomes && made.length > 0 ? (
        <ul aria-label={t('nextFree.madeHere')} aria-live="polite" className="flex flex-col gap-1 text-sm">
          {made.map((r) => (
            <li key={r.id}>{noticeText(r, timeZone, { room: true }, words)}</li>
          ))}
        </ul>
      ) : null}
      {data && data.atQuota.length > 0 ? <p className={mutedTextClass}>{t('nextFree.leftOut', { rooms: formatList(data.atQuota, locale) })}</p> : null}
      {!residentUserId ? <p className={mutedTextClass}>{t('nextFree.noResident')}</p> : null}
      {!data && !result.isError ? (
        <p className={mutedTextClass}>{t('nextFree.looking')}</p>
      ) : slots.length === 0 ? (
        <p className={mutedTextClass}>{t('nextFree.none')}</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label={t('nextFree.listLabel')}>
          {slots.map((s) => {
            const day = formatDayLabel(wallClock(s.startMs, timeZone), locale);
            const room = s.resourceName || t('nextFree.unnamedRoom');
            return (
            <li key={`${s.resourceId}|${s.startTime}`}>
              <Card className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  <span className="font-medium">{t('nextFree.slot', { day, start: s.startLabel, end: s.endLabel, nextDay: s.endsNextDay ? 'yes' : 'no' })}</span>{' '}
                  <span className={mutedTextClass}>· {room}</span>
                </span>
                <Button
                  variant="secondary"
                  disabled={!residentUserId || booking.pending}
                  aria-label={t('nextFree.bookLabel', { day, start: s.startLabel, end: s.endLabel, room })}
                  onClick={() =>
                    residentUserId && booking.send({ kind: 'book', deviceId, resourceId: s.resourceId, residentUserId, startTime: s.startTime, endTime: s.endTime })
                  }
                >
                  {t('nextFree.book')}
                </Button>
              </Card>
            </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
