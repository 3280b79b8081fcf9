'use client';

import { useState } from 'react';
import { useRequestUpdates } from '@/components/booking/live-events';
import type { RequestView } from '@/lib/events/types';
import { reasonText, requestWhen, residentWords, roomKnown, useWords, type Words } from './words';

const MAX_NOTICES = 5;

export { requestWhen };

/**
 * What a request is, in words: "Booking Monday 24 November, 07:00–10:00 for apartment 1203", with
 * the room ("in Tvättstuga 1") where the place shows several rooms, the resident where it shows several.
 */
export function requestWhat(r: RequestView, timeZone: string, show: { room?: boolean; resident?: boolean }, words: Words): string {
  return words.t('outcomes.what', {
    kind: r.kind,
    when: requestWhen(r, timeZone, words),
    roomShown: show.room ? roomKnown(r) : 'no',
    room: r.resourceName ?? '',
    residentShown: show.resident ? 'yes' : 'no',
    resident: residentWords(r, words),
  });
}

/** A live notice: what, then how it stands now. The portal never guesses: pending until the truth arrives. */
export function noticeText(r: RequestView, timeZone: string, show: { room?: boolean; resident?: boolean }, words: Words): string {
  const what = requestWhat(r, timeZone, show, words);
  const { t } = words;
  switch (r.status) {
    case 'sending':
      return t('outcomes.notice.sending', { what });
    case 'pending':
      // Sent; the answer was lost (or not here yet).
      return r.outcomeUnknown ? t('outcomes.notice.unknown', { what }) : t('outcomes.notice.pending', { what });
    case 'succeeded':
      return t('outcomes.notice.succeeded', { what, kind: r.kind });
    case 'failed': {
      const reason = reasonText(r.reason, words);
      return reason ? t('outcomes.notice.failedBecause', { what, kind: r.kind, reason }) : t('outcomes.notice.failed', { what, kind: r.kind });
    }
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
  const words = useWords();
  return (
    <ul aria-label={words.t('outcomes.listLabel')} aria-live="polite" className="flex flex-col gap-1 empty:hidden">
      {notices.map((r) => (
        <li key={r.id} className={`rounded-md border px-3 py-2 text-sm ${noticeClass(r)}`}>
          {noticeText(r, timeZone, show, words)}
        </li>
      ))}
    </ul>
  );
}
