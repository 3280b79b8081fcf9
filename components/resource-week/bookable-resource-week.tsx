'use client';

import dynamic from 'next/dynamic';
import { useTranslations } from 'next-intl';
import { useEffect } from 'react';
import { OutcomeNotices, useOutcomeNotices } from '@/components/booking/outcome-notices';
import { mutedTextClass } from '@/components/ui/styles';
import { ResourceWeek } from './resource-week';
import type { ResourceWeekView } from '@/lib/views/types';
import type { ChosenResident } from './resident-picker';

const loadSlotActions = () => import('./slot-actions');

// The slot dialog's actions (resident search, next free slots, quota note, the booking mutation)
// are no part of the page's first load (issue 34: grid first-load JS); they are fetched once the
// browser is idle after hydration, so the dialog normally opens with them at once.
const SlotActions = dynamic(() => loadSlotActions().then((m) => m.SlotActions), { loading: SlotActionsLoading });

function SlotActionsLoading() {
  const t = useTranslations('slot');
  return (
    <p className={mutedTextClass} role="status">
      {t('actionsLoading')}
    </p>
  );
}

/** The resource page's week with booking: the slot dialog's actions and live outcome notices. */
export function BookableResourceWeek({ initial, resourceId, preselected }: { initial: ResourceWeekView; resourceId: string; preselected: ChosenResident | null }) {
  const t = useTranslations('slot');
  const timeZone = initial.system.timeZone;
  const notices = useOutcomeNotices((request) => request.resourceId === resourceId && request.deviceId === initial.system.deviceId);
  useEffect(() => {
    const preload = () => void loadSlotActions();
    if (typeof window.requestIdleCallback !== 'function') {
      const timer = window.setTimeout(preload, 200);
      return () => window.clearTimeout(timer);
    }
    const id = window.requestIdleCallback(preload, { timeout: 2_000 });
    return () => window.cancelIdleCallback(id);
  }, []);
  return (
    <div className="flex flex-col gap-4">
      <OutcomeNotices notices={notices} timeZone={timeZone} show={{ resident: true }} />
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
            resourceName={initial.resource?.name ?? t('thisResource')}
            timeZone={timeZone}
            preselected={preselected}
            close={close}
          />
        )}
      />
    </div>
  );
}
