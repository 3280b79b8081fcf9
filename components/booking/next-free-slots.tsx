'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useReservationRequest } from '@/components/resource-week/reservation-request';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorTextClass, mutedTextClass } from '@/components/ui/styles';
import { fetchJson } from '@/lib/client/fetch-json';
import { queryKeys } from '@/lib/client/query-keys';
import type { NextFreeView } from '@/lib/views/apartment-types';
import { noticeText, useOutcomeNotices } from './outcome-notices';
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

/**
 * The apartment's next free slots with a Book button each: one click sends the booking through the
 * normal flow (its own Idempotency-Key, pending at once), and the list says how the requests made
 * here stand, live. Shared by the apartment page and the slot dialog.
 */
export function NextFreeSlots({ deviceId, groupId, residentUserId, search = '', count, initial, timeZone, showOutcomes = true }: NextFreeSlotsProps) {
  const errorText = useErrorText();
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
  const [mine, setMine] = useState<readonly string[]>([]);
  const booking = useReservationRequest({ onAccepted: (request) => setMine((ids) => [...ids, request.id]) });
  const made = useOutcomeNotices((request) => mine.includes(request.id));
  const slots = data?.slots ?? [];
  return (
    <div className="flex flex-col gap-2">
      {result.isError ? <p className={errorTextClass}>{errorText(result.error)}</p> : null}
      {booking.error ? (
        <p role="alert" className={errorTextClass}>
          {booking.error}
        </p>
      ) : null}
      {showOutcomes && made.length > 0 ? (
        <ul aria-label="Bookings made here" aria-live="polite" className="flex flex-col gap-1 text-sm">
          {made.map((r) => (
            <li key={r.id}>{noticeText(r, timeZone, { room: true })}</li>
          ))}
        </ul>
      ) : null}
      {data && data.atQuota.length > 0 ? <p className={mutedTextClass}>Left out, at the quota: {data.atQuota.join(', ')}.</p> : null}
      {!residentUserId ? <p className={mutedTextClass}>No resident of this apartment is known, so no booking can be made from here.</p> : null}
      {!data && !result.isError ? (
        <p className={mutedTextClass}>Looking for free slots…</p>
      ) : slots.length === 0 ? (
        <p className={mutedTextClass}>No free slot within the booking horizon matches.</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label="Free slots">
          {slots.map((s) => (
            <li key={`${s.resourceId}|${s.startTime}`}>
              <Card className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  <span className="font-medium">
                    {s.dayLabel}, {s.startLabel}–{s.endLabel}
                    {s.endsNextDay ? ' (next day)' : ''}
                  </span>{' '}
                  <span className={mutedTextClass}>· {s.resourceName || 'Unnamed room'}</span>
                </span>
                <Button
                  variant="secondary"
                  disabled={!residentUserId || booking.pending}
                  aria-label={`Book ${s.dayLabel} ${s.startLabel}–${s.endLabel} in ${s.resourceName || 'the room'}`}
                  onClick={() =>
                    residentUserId && booking.send({ kind: 'book', deviceId, resourceId: s.resourceId, residentUserId, startTime: s.startTime, endTime: s.endTime })
                  }
                >
                  Book
                </Button>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
