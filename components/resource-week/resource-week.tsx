'use client';

import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { type ReactNode, useMemo, useState } from 'react';
import { fetchJson } from '@/lib/client/fetch-json';
import { queryKeys } from '@/lib/client/query-keys';
import { ENDED_BOOKING_NAME, SLOT_STATE_NAMES, weekLabel } from '@/lib/schedule/labels';
import type { StatefulSlot } from '@/lib/schedule';
import { applyOpenRequests } from '@/lib/schedule/pending';
import type { ResourceWeekView } from '@/lib/views/types';
import { FreshnessNote } from '@/components/freshness-note';
import { GridSkeleton } from '@/components/skeletons';
import { QueryError } from '@/components/query-error';
import { SlotGrid } from './slot-grid';
import { SlotPanel } from './slot-panel';
import { WeekNav } from './week-nav';
import { useErrorText } from '@/components/use-error-text';

export interface ResourceWeekProps {
  initial: ResourceWeekView;
  resourceId: string;
  /** `?resident=` from the URL: the resident a booking would be for (residents page link). */
  residentUserId?: string | null;
  /** Actions inside the slot panel (e.g. a booking form); gets the open slot. */
  renderSlotActions?: (slot: StatefulSlot, close: () => void) => ReactNode;
}

/**
 * The resource page's interactive part: week navigation (in the URL), freshness, the slot grid
 * and the slot panel that Enter or a click opens. All slot-open handling lives here.
 */
export function ResourceWeek({ initial, resourceId, residentUserId, renderSlotActions }: ResourceWeekProps) {
  const errorText = useErrorText();
  const deviceId = initial.system.deviceId;
  const weekKey = initial.week.key;
  const query = useQuery({
    queryKey: queryKeys.resourceWeek(deviceId, resourceId, weekKey),
    queryFn: ({ signal }) =>
      fetchJson<ResourceWeekView>(`/api/systems/${deviceId}/resources/${resourceId}/week?week=${encodeURIComponent(weekKey)}`, { signal }),
    initialData: initial,
    initialDataUpdatedAt: initial.generatedAt,
    refetchInterval: (q) => (q.state.data?.freshness.status === 'loading' ? 1000 : 30_000),
  });
  const data = query.data;
  // The portal's own open requests show on the grid at once (pending), before the mirror has them.
  const slots = useMemo(
    () =>
      applyOpenRequests(
        data.slots,
        data.requests.map((r) => ({ ...r, label: r.residentApartment ? `apartment ${r.residentApartment}` : (r.residentName ?? null) })),
        data.generatedAt,
      ),
    [data.slots, data.requests, data.generatedAt],
  );
  const router = useRouter();
  const [openId, setOpenId] = useState<string | null>(null);
  const open = openId ? (slots.find((s) => s.id === openId) ?? null) : null;
  const close = () => setOpenId(null);

  const href = (week: string) => {
    const params = new URLSearchParams({ week });
    if (residentUserId) params.set('resident', residentUserId);
    return `?${params.toString()}`;
  };
  const label = weekLabel(data.week);
  return (
    <div className="flex flex-col gap-4">
      <WeekNav
        key={data.week.key}
        label={label}
        firstDate={data.week.days[0]?.date}
        onGoToWeek={(week) => router.push(href(week))}
        previousHref={href(data.nav.previous)}
        nextHref={href(data.nav.next)}
        thisWeekHref={data.week.key === data.nav.current ? null : href(data.nav.current)}
      />
      <FreshnessNote freshness={data.freshness} timeZone={data.system.timeZone} />
      {query.isError ? (
        <QueryError
          title="Could not update the slots"
          message={`${errorText(query.error)} The slots below are from the last successful load.`}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : null}
      {data.freshness.status === 'loading' ? (
        <GridSkeleton />
      ) : (
        <>
          <SlotLegend />
          <SlotGrid
            key={data.week.key}
            week={data.week}
            slots={slots}
            now={data.generatedAt}
            horizonEnd={data.horizonEnd}
            label={`${data.resource?.name ?? 'Slots'}, ${label}`}
            onOpen={(slot) => setOpenId(slot.id)}
          />
        </>
      )}
      <SlotPanel slot={open} deviceId={data.system.deviceId} origin={open?.reservation ? (data.origins.find((o) => o.reservationId === open.reservation?.id) ?? null) : null} onClose={close}>
        {open && renderSlotActions ? renderSlotActions(open, close) : null}
      </SlotPanel>
    </div>
  );
}

const LEGEND = [
  { name: SLOT_STATE_NAMES.free, className: 'border border-dashed border-emerald-700 bg-emerald-50 dark:border-emerald-400 dark:bg-emerald-950' },
  { name: SLOT_STATE_NAMES.pending, className: 'border-2 border-dashed border-violet-700 bg-violet-50 dark:border-violet-300 dark:bg-violet-950' },
  { name: SLOT_STATE_NAMES.booked, className: 'border border-brand-700 bg-brand-600 dark:border-blue-300 dark:bg-blue-800' },
  { name: ENDED_BOOKING_NAME, className: 'border border-slate-400 bg-slate-100 dark:border-slate-600 dark:bg-slate-900' },
  { name: SLOT_STATE_NAMES.used, className: 'border border-slate-500 bg-slate-200 dark:border-slate-400 dark:bg-slate-700' },
  { name: SLOT_STATE_NAMES.maintenance, className: 'border-2 border-double border-amber-700 bg-amber-100 dark:border-amber-400 dark:bg-amber-950' },
  { name: SLOT_STATE_NAMES.past, className: 'border border-dotted border-slate-300 bg-slate-50 dark:border-slate-700 dark:bg-slate-900' },
  { name: 'Not yet bookable', className: 'border border-dashed border-slate-400 bg-white dark:border-slate-500 dark:bg-slate-950' },
] as const;

function SlotLegend() {
  return (
    <ul aria-label="Slot states" className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700 dark:text-slate-300">
      {LEGEND.map((item) => (
        <li key={item.name} className="flex items-center gap-1.5">
          <span aria-hidden="true" className={`inline-block h-3.5 w-5 rounded-sm ${item.className}`} />
          {item.name}
        </li>
      ))}
    </ul>
  );
}
