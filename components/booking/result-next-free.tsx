'use client';

import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { errorTextClass, mutedTextClass } from '@/components/ui/styles';
import { queryKeys } from '@/lib/client/query-keys';
import { formatDayLabel } from '@/lib/i18n/format';
import { wallClock } from '@/lib/schedule/zoned';
import { useErrorText } from '@/components/use-error-text';
import { useBookHere, useNextFree } from './next-free-slots';
import { noticeText } from './outcome-notices';
import { useWords } from './words';

export interface ResultNextFreeProps {
  deviceId: string;
  groupId: string;
  /** Who a Book is for (the apartment's first resident listed); null offers no Book. */
  residentUserId: string | null;
  /** The apartment as the result names it ("Apartment 1001"), for the button's accessible name. */
  apartment: string;
}

/**
 * A search result's next free slot with a Book: "Next free slot: Friday 28 November, 07:00–10:00 ·
 * Tvättstuga 1 [Book]". The same slots and the same request as the apartment page's next free
 * slots (useNextFree, useBookHere); the outcome is told below it, live, and a settled one reads the
 * slot after afresh.
 */
export function ResultNextFree({ deviceId, groupId, residentUserId, apartment }: ResultNextFreeProps) {
  const client = useQueryClient();
  const errorText = useErrorText();
  const { result, data } = useNextFree({ deviceId, groupId, count: 1 });
  const { booking, made } = useBookHere((request) => {
    if (request.status === 'succeeded' || request.status === 'failed') void client.invalidateQueries({ queryKey: queryKeys.apartmentAll(deviceId, groupId) });
  });
  const words = useWords();
  const { t, locale } = words;
  const slot = data?.slots[0];
  const timeZone = data?.timeZone ?? 'UTC';
  let line: ReactNode;
  if (result.isError) {
    line = <span className={errorTextClass}>{errorText(result.error)}</span>;
  } else if (!data) {
    line = <span className={mutedTextClass}>{t('nextFree.looking')}</span>;
  } else if (!slot) {
    line = <span className={mutedTextClass}>{t('nextFree.firstNone')}</span>;
  } else {
    const day = formatDayLabel(wallClock(slot.startMs, timeZone), locale);
    const room = slot.resourceName || t('nextFree.unnamedRoom');
    line = (
      <>
        <span>
          <span className={mutedTextClass}>{t('nextFree.first')}</span>{' '}
          <span className="font-medium">{t('nextFree.slot', { day, start: slot.startLabel, end: slot.endLabel, nextDay: slot.endsNextDay ? 'yes' : 'no' })}</span>{' '}
          <span className={mutedTextClass}>· {room}</span>
        </span>
        {residentUserId ? (
          <Button
            variant="secondary"
            disabled={booking.pending}
            aria-label={t('nextFree.bookFirstLabel', { day, start: slot.startLabel, end: slot.endLabel, room, apartment })}
            onClick={() => booking.send({ kind: 'book', deviceId, resourceId: slot.resourceId, residentUserId, startTime: slot.startTime, endTime: slot.endTime })}
          >
            {t('nextFree.book')}
          </Button>
        ) : null}
      </>
    );
  }
  return (
    <div role="group" aria-label={t('nextFree.firstLabel', { apartment })} className="flex flex-col gap-1 border-t border-slate-200 pt-2 text-sm dark:border-slate-800">
      <div className="flex flex-wrap items-center justify-between gap-2">{line}</div>
      {booking.error ? (
        <p role="alert" className={errorTextClass}>
          {booking.error}
        </p>
      ) : null}
      <ul aria-label={t('nextFree.madeHere')} aria-live="polite" className="flex flex-col gap-1 empty:hidden">
        {made.map((r) => (
          <li key={r.id}>{noticeText(r, timeZone, { room: true }, words)}</li>
        ))}
      </ul>
    </div>
  );
}
