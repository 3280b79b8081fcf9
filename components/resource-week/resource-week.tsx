'use client';

import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useLocale, useTranslations } from 'next-intl';
import { type ReactNode, useMemo, useState } from 'react';
import { fetchJson } from '@/lib/client/fetch-json';
import { queryKeys } from '@/lib/client/query-keys';
import type { Owner, StatefulSlot } from '@/lib/schedule';
import { applyOpenRequests } from '@/lib/schedule/pending';
import type { ResourceWeekView } from '@/lib/views/types';
import { FreshnessNote } from '@/components/freshness-note';
import { GridSkeleton } from '@/components/skeletons';
import { StaleDataError } from '@/components/ui/query-error';
import { SlotGrid } from './slot-grid';
import { SlotPanel } from './slot-panel';
import { WeekNav } from './week-nav';
import { weekLabel } from './slot-words';

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
  const t = useTranslations('grid');
  const locale = useLocale();
  // The portal's own open requests show on the grid at once (pending), before the mirror has them.
  const slots = useMemo(
    () =>
      applyOpenRequests(
        data.slots,
        data.requests.map((r) => ({ ...r, label: ownerOfRequest(r) })),
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
  const label = weekLabel(data.week, t, locale);
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
        sheetHref={`/systems/${deviceId}/resources/${resourceId}/sheet?week=${encodeURIComponent(weekKey)}`}
      />
      <FreshnessNote freshness={data.freshness} timeZone={data.system.timeZone} slotsShown={data.resource !== null} />
      <StaleDataError query={query} namespace="grid" />
      {/* A first load shows the week as soon as its rooms are in (freshness.partial), bookings as read. */}
      {data.freshness.status === 'loading' && !(data.freshness.partial && data.resource) ? (
        <GridSkeleton />
      ) : (
        <>
          <SlotLegend checking={data.freshness.status === 'loading'} />
          <SlotGrid
            key={data.week.key}
            week={data.week}
            slots={slots}
            now={data.generatedAt}
            horizonEnd={data.bookableUntil ?? null}
            label={t('region', { resource: data.resource?.name ?? t('slots'), week: label })}
            onOpen={(slot) => setOpenId(slot.id)}
            noListedSchedule={data.noListedSchedule === true}
          />
        </>
      )}
      <SlotPanel slot={open} deviceId={data.system.deviceId} origin={open?.reservation ? (data.origins.find((o) => o.reservationId === open.reservation?.id) ?? null) : null} onClose={close}>
        {open && renderSlotActions ? renderSlotActions(open, close) : null}
      </SlotPanel>
    </div>
  );
}

/** The legend's entries: a catalogue key under `slot.state` and the swatch's style. */
const LEGEND = [
  { key: 'free', className: 'border border-dashed border-emerald-700 bg-emerald-50 dark:border-emerald-400 dark:bg-emerald-950' },
  { key: 'pending', className: 'border-2 border-dashed border-violet-700 bg-violet-50 dark:border-violet-300 dark:bg-violet-950' },
  { key: 'booked', className: 'border border-brand-700 bg-brand-600 dark:border-blue-300 dark:bg-blue-800' },
  { key: 'wasBooked', className: 'border border-slate-400 bg-slate-100 dark:border-slate-600 dark:bg-slate-900' },
  { key: 'used', className: 'border border-slate-500 bg-slate-200 dark:border-slate-400 dark:bg-slate-700' },
  { key: 'maintenance', className: 'border-2 border-double border-amber-700 bg-amber-100 dark:border-amber-400 dark:bg-amber-950' },
  { key: 'past', className: 'border border-dotted border-slate-300 bg-slate-50 dark:border-slate-700 dark:bg-slate-900' },
  { key: 'notYetBookable', className: 'border border-dashed border-slate-400 bg-white dark:border-slate-500 dark:bg-slate-950' },
] as const;
/** Only while a first load is still reading the bookings. */
const CHECKING = { key: 'loading', className: 'border-2 border-dotted border-slate-400 bg-slate-100 dark:border-slate-500 dark:bg-slate-800' } as const;

/** The grid's legend; `checking` adds the state of slots a first load has not read yet. */
export function SlotLegend({ checking = false }: { checking?: boolean }) {
  const t = useTranslations('grid');
  const states = useTranslations('slot.state');
  const entries = checking ? [CHECKING, ...LEGEND] : LEGEND;
  return (
    <ul aria-label={t('legend')} className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700 dark:text-slate-300">
      {entries.map((item) => (
        <li key={item.key} className="flex items-center gap-1.5">
          <span aria-hidden="true" className={`inline-block h-3.5 w-5 rounded-sm ${item.className}`} />
          {states(item.key)}
        </li>
      ))}
    </ul>
  );
}

/** Who an open request books for, as the grid's slots say it: the apartment, else the resident's name. */
function ownerOfRequest(r: { residentApartment?: string | null; residentName?: string | null }): Owner | null {
  if (r.residentApartment) return { kind: 'apartment', apartment: r.residentApartment };
  return r.residentName ? { kind: 'name', name: r.residentName } : null;
}
