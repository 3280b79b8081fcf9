'use client';

import { useLocale, useTranslations } from 'next-intl';
import { periodWords } from '@/lib/closures/period';
import type { RoomClosureNote } from '@/lib/views/types';

/** "Closed: pipe repair (Tuesday 24 November at 13:00–17:00)" for each closure of a room, in the system's zone. */
export function ClosedNotes({ notes, timeZone }: { notes: readonly RoomClosureNote[] | undefined; timeZone: string }) {
  const t = useTranslations('closedSlot');
  const locale = useLocale();
  if (!notes || notes.length === 0) return null;
  return (
    <>
      {notes.map((n) => (
        <p key={`${n.startMs}-${n.reason}`} className="w-full text-sm font-medium text-amber-900 dark:text-amber-200">
          {t('withPeriod', { reason: n.reason, period: periodWords(n.startMs, n.endMs, timeZone, locale) })}
        </p>
      ))}
    </>
  );
}
