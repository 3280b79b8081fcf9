'use client';

import { useState } from 'react';
import { ResourceWeek } from './resource-week';
import type { RequestView } from '@/lib/events/types';
import { formatClock, formatDayTime } from '@/lib/schedule/labels';
import type { ResourceWeekView } from '@/lib/views/types';
import { useRequestUpdates } from '@/components/booking/live-events';
import type { ChosenResident } from './resident-picker';
import { SlotActions } from './slot-actions';

const MAX_NOTICES = 5;

function noticeText(r: RequestView, timeZone: string): string {
  const when = r.startTime && r.endTime ? `${formatDayTime(Date.parse(r.startTime), timeZone)}–${formatClock(Date.parse(r.endTime), timeZone)}` : 'a slot';
  const who = r.residentApartment ? `apartment ${r.residentApartment}` : (r.residentName ?? 'a resident');
  const what = r.kind === 'create' ? `Booking ${when} for ${who}` : `Cancelling ${when} of ${who}`;
  switch (r.status) {
    case 'sending':
      return `${what}: sending…`;
    case 'pending':
      // Sent; the answer was lost (or not here yet). The portal never guesses: it waits for the truth.
      return r.outcomeUnknown
        ? `${what}: sent — waiting for the service's answer (checking the service's bookings)…`
        : `${what}: sent — waiting for the service's answer…`;
    case 'succeeded':
      return `${what}: ${r.kind === 'create' ? 'booked' : 'cancelled'}.`;
    case 'failed':
      return `${what}: ${r.kind === 'create' ? 'not booked' : 'not cancelled'}. ${r.reason ?? ''}`.trim();
  }
}

/** The resource page's week with booking: the slot dialog's actions and live outcome notices. */
export function BookableResourceWeek({ initial, resourceId, preselected }: { initial: ResourceWeekView; resourceId: string; preselected: ChosenResident | null }) {
  const [notices, setNotices] = useState<RequestView[]>([]);
  const timeZone = initial.system.timeZone;
  useRequestUpdates((request) => {
    if (request.resourceId !== resourceId || request.deviceId !== initial.system.deviceId) return;
    setNotices((list) => {
      const current = list.find((r) => r.id === request.id);
      if (current && (current.status === 'succeeded' || current.status === 'failed')) return list;
      return [request, ...list.filter((r) => r.id !== request.id)].slice(0, MAX_NOTICES);
    });
  });
  return (
    <div className="flex flex-col gap-4">
      <ul aria-label="Booking outcomes" aria-live="polite" className="flex flex-col gap-1 empty:hidden">
        {notices.map((r) => (
          <li
            key={r.id}
            className={`rounded-md border px-3 py-2 text-sm ${
              r.status === 'failed'
                ? 'border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100'
                : r.status === 'succeeded'
                  ? 'border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-50'
                  : 'border-violet-300 bg-violet-50 text-violet-950 dark:border-violet-700 dark:bg-violet-950 dark:text-violet-50'
            }`}
          >
            {noticeText(r, timeZone)}
          </li>
        ))}
      </ul>
      <ResourceWeek
        initial={initial}
        resourceId={resourceId}
        residentUserId={preselected?.userId ?? null}
        renderSlotActions={(slot, close) => (
          <SlotActions
            key={slot.id}
            slot={slot}
            deviceId={initial.system.deviceId}
            resourceId={resourceId}
            resourceName={initial.resource?.name ?? 'this resource'}
            preselected={preselected}
            close={close}
          />
        )}
      />
    </div>
  );
}
