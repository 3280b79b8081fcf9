'use client';

import { useState } from 'react';
import { useRequestUpdates } from '@/components/booking/live-events';
import type { RequestView } from '@/lib/events/types';
import { formatClock, formatDayTime } from '@/lib/schedule/labels';

const MAX_NOTICES = 5;

/** "Mon 24 Nov 07:00–10:00", or "a slot" for a request that names no time. */
export function requestWhen(r: Pick<RequestView, 'startTime' | 'endTime'>, timeZone: string): string {
  return r.startTime && r.endTime ? `${formatDayTime(Date.parse(r.startTime), timeZone)}–${formatClock(Date.parse(r.endTime), timeZone)}` : 'a slot';
}

/**
 * What a request is, in words: "Booking Mon 24 Nov 07:00–10:00 for apartment 1203", with the room
 * ("in Tvättstuga 1") where the place shows several rooms, the resident where it shows several.
 */
export function requestWhat(r: RequestView, timeZone: string, show: { room?: boolean; resident?: boolean }): string {
  const room = show.room && r.resourceName ? ` in ${r.resourceName}` : '';
  const who = r.residentApartment ? `apartment ${r.residentApartment}` : (r.residentName ?? 'a resident');
  const resident = show.resident ? (r.kind === 'create' ? ` for ${who}` : ` of ${who}`) : '';
  return `${r.kind === 'create' ? 'Booking' : 'Cancelling'} ${requestWhen(r, timeZone)}${room}${resident}`;
}

/** A live notice: what, then how it stands now. The portal never guesses: pending until the truth arrives. */
export function noticeText(r: RequestView, timeZone: string, show: { room?: boolean; resident?: boolean }): string {
  const what = requestWhat(r, timeZone, show);
  switch (r.status) {
    case 'sending':
      return `${what}: sending…`;
    case 'pending':
      // Sent; the answer was lost (or not here yet).
      return r.outcomeUnknown
        ? `${what}: sent — waiting for the service's answer (checking the service's bookings)…`
        : `${what}: sent — waiting for the service's answer…`;
    case 'succeeded':
      return `${what}: ${r.kind === 'create' ? 'booked' : 'cancelled'}.`;
    case 'failed':
      return `${what}: ${r.kind === 'create' ? 'not booked' : 'not cancelled'}. ${r.reason ?? ''}`.trim();
  }
}

function noticeClass(r: RequestView): string {
  if (r.status === 'failed') return 'border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100';
  if (r.status === 'succeeded') return 'border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-50';
  return 'border-violet-300 bg-violet-50 text-violet-950 dark:border-violet-700 dark:bg-violet-950 dark:text-violet-50';
}

/**
 * The newest requests of this place as they arrive live (and this tab's own 202s), newest first;
 * a settled one is not overwritten by a late, older event. `onNotice` runs for each one taken.
 */
export function useOutcomeNotices(accept: (r: RequestView) => boolean, onNotice?: (r: RequestView) => void): RequestView[] {
  const [notices, setNotices] = useState<RequestView[]>([]);
  useRequestUpdates((request) => {
    if (!accept(request)) return;
    setNotices((list) => {
      const current = list.find((r) => r.id === request.id);
      if (current && (current.status === 'succeeded' || current.status === 'failed')) return list;
      return [request, ...list.filter((r) => r.id !== request.id)].slice(0, MAX_NOTICES);
    });
    onNotice?.(request);
  });
  return notices;
}

/** The list of live notices ("Booking outcomes"), announced politely. */
export function OutcomeNotices({ notices, timeZone, show }: { notices: readonly RequestView[]; timeZone: string; show: { room?: boolean; resident?: boolean } }) {
  return (
    <ul aria-label="Booking outcomes" aria-live="polite" className="flex flex-col gap-1 empty:hidden">
      {notices.map((r) => (
        <li key={r.id} className={`rounded-md border px-3 py-2 text-sm ${noticeClass(r)}`}>
          {noticeText(r, timeZone, show)}
        </li>
      ))}
    </ul>
  );
}
