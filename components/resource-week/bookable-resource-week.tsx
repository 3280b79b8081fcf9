'use client';

import { useTranslations } from 'next-intl';
import { OutcomeNotices, useOutcomeNotices } from '@/components/booking/outcome-notices';
import { ResourceWeek } from './resource-week';
import type { ResourceWeekView } from '@/lib/views/types';
import type { ChosenResident } from './resident-picker';
import { SlotActions } from './slot-actions';

/** The resource page's week with booking: the slot dialog's actions and live outcome notices. */
export function BookableResourceWeek({ initial, resourceId, preselected }: { initial: ResourceWeekView; resourceId: string; preselected: ChosenResident | null }) {
  const t = useTranslations('slot');
  const timeZone = initial.system.timeZone;
  const notices = useOutcomeNotices((request) => request.resourceId === resourceId && request.deviceId === initial.system.deviceId);
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
