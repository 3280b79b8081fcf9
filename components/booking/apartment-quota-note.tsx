'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { mutedTextClass } from '@/components/ui/styles';
import { fetchJson } from '@/lib/client/fetch-json';
import { queryKeys } from '@/lib/client/query-keys';
import { useLocale, useTranslations } from 'next-intl';
import { apartmentTitleText } from '@/components/apartment/apartment-title';
import { formatDayTime } from '@/lib/i18n/format';
import type { ApartmentView } from '@/lib/views/apartment-types';
import { roomList } from '@/lib/booking-rules/describe';

export interface ApartmentQuotaNoteProps {
  deviceId: string;
  groupId: string;
  resourceId: string;
  /** The slot about to be booked, to name it in the warning (the count itself is as of now). */
  slotStartMs?: number;
  /** Told whether a booking would be refused for the quota (true) or not (false; also while unknown). */
  onBlockedChange?: (blocked: boolean) => void;
}

/**
 * "Apartment 1203: 1 of 2 future bookings in Tvättstuga 1." ("Lägenhet 1203: 1 av 2 kommande bokningar i Tvättstuga 1."), and a warning at the quota: for the
 * slot dialog, beside the chosen resident. Reads the apartment page's query (shared cache, kept
 * current by that page's live refetches); says nothing while it loads or when it cannot load, since
 * the server checks the quota again anyway.
 */
export function ApartmentQuotaNote({ deviceId, groupId, resourceId, slotStartMs, onBlockedChange }: ApartmentQuotaNoteProps) {
  const query = useQuery({
    queryKey: queryKeys.apartment(deviceId, groupId),
    queryFn: ({ signal }) => fetchJson<ApartmentView>(`/api/systems/${deviceId}/apartments/${groupId}`, { signal }),
    // Always read afresh when a dialog opens: a booking made a moment ago (from this dialog or
    // another tab) must count, or the note would offer a slot the handler then refuses.
    staleTime: 0,
    refetchOnMount: 'always',
  });
  // Until the fresh read is in, a cached answer may be out of date: say nothing rather than something stale.
  const view = query.isFetchedAfterMount ? query.data : undefined;
  const room = view?.rooms.find((r) => r.resourceId === resourceId);
  const blocked = room?.atQuota ?? false;
  useEffect(() => {
    onBlockedChange?.(blocked);
  }, [blocked, onBlockedChange]);
  return <QuotaNoteText view={view} resourceId={resourceId} slotStartMs={slotStartMs} />;
}

/** The note itself, from an apartment view read afresh: nothing for a room the view does not list. */
export function QuotaNoteText({ view, resourceId, slotStartMs }: { view: ApartmentView | undefined; resourceId: string; slotStartMs?: number }) {
  const t = useTranslations();
  const locale = useLocale();
  const room = view?.rooms.find((r) => r.resourceId === resourceId);
  if (!view || !room) return null;
  // A room sharing its group's bookings at a time: the group's count, and the group's rooms named.
  const usage = room.groupRooms
    ? t('quota.groupUsage', { held: room.held, quota: room.quota, rooms: roomList(room.groupRooms, locale) })
    : t('quota.usage', { held: room.held, quota: room.quota, room: room.name, roomKnown: room.name ? 'yes' : 'no' });
  const line = t('quota.line', { title: apartmentTitleText(view.title, t), usage });
  if (!room.atQuota) return <p className={mutedTextClass}>{line}</p>;
  const slot = slotStartMs === undefined ? t('quota.anotherSlot') : formatDayTime(slotStartMs, view.system.timeZone, locale);
  return (
    <p role="alert" className="rounded-md border border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-50">
      <strong className="font-semibold">{line}</strong> {t('quota.atQuota', { slot })}
    </p>
  );
}
