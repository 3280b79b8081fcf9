'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { NextFreeSlots } from '@/components/booking/next-free-slots';
import { OutcomeNotices, requestWhat, useOutcomeNotices } from '@/components/booking/outcome-notices';
import { requestStatusLine, requestStatusText } from '@/components/booking/request-status';
import { useWords } from '@/components/booking/words';
import { FreshnessNote } from '@/components/freshness-note';
import { StaleDataError } from '@/components/ui/query-error';
import { useReservationRequest } from '@/components/resource-week/reservation-request';
import { ClosedNotes } from '@/components/closures/closed-notes';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorTextClass, inputClass, labelClass, mutedTextClass } from '@/components/ui/styles';
import { fetchJson } from '@/lib/client/fetch-json';
import { queryKeys } from '@/lib/client/query-keys';
import { formatDayLabel, formatDayTime } from '@/lib/i18n/format';
import { wallClock } from '@/lib/schedule/zoned';
import { DAY_PARTS, type DayPart } from '@/lib/schedule/next-free';
import { RESOURCE_KINDS, type ResourceKind } from '@/lib/schedule/resource-kind';
import type { ApartmentBooking, ApartmentView, NextFreeView } from '@/lib/views/apartment-types';

/** The apartment page's live part: first data from the server, then kept current by React Query and the live events. */
export function ApartmentDesk({ initial, initialNextFree }: { initial: ApartmentView; initialNextFree: NextFreeView }) {
  const { deviceId, timeZone } = initial.system;
  const groupId = initial.group.id;
  const client = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.apartment(deviceId, groupId),
    queryFn: ({ signal }) => fetchJson<ApartmentView>(`/api/systems/${deviceId}/apartments/${groupId}`, { signal }),
    initialData: initial,
    initialDataUpdatedAt: initial.generatedAt,
    refetchInterval: 60_000,
  });
  const data = query.data;
  const residentIds = new Set(data.residents.map((r) => r.userId));
  // An outcome arriving live (or this tab's own 202) for this apartment: show it, refetch the page.
  const notices = useOutcomeNotices(
    (request) =>
      request.deviceId === deviceId &&
      ((request.residentUserId !== null && residentIds.has(request.residentUserId)) || data.upcoming.some((b) => b.reservationId === request.reservationId)),
    () => void client.invalidateQueries({ queryKey: queryKeys.apartmentAll(deviceId, groupId) }),
  );

  return (
    <div className="flex flex-col gap-6">
      <FreshnessNote freshness={data.freshness} timeZone={timeZone} />
      <StaleDataError query={query} namespace="apartment" />
      <OutcomeNotices notices={notices} timeZone={timeZone} show={{ room: true }} />
      <div className="flex flex-col gap-6 lg:grid lg:grid-cols-2 lg:items-start">
        <Residents view={data} />
        <Rooms view={data} />
      </div>
      <NextFree view={data} initial={initialNextFree} />
      <Upcoming view={data} />
      <Past view={data} />
      <History view={data} />
    </div>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Residents({ view }: { view: ApartmentView }) {
  const t = useTranslations('apartment');
  return (
    <Section id="residents-heading" title={t('residents.heading')}>
      {!view.residentsKnown ? (
        <p className={mutedTextClass}>{t('residents.unknown')}</p>
      ) : view.residents.length === 0 ? (
        <p className={mutedTextClass}>{t('residents.none')}</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {view.residents.map((r) => (
            <li key={r.userId}>
              <Card className="flex flex-col gap-0.5 py-2">
                <span className="font-medium">{r.name || t('residents.noName')}</span>
                <span className={`${mutedTextClass} break-all`}>{r.email || t('residents.noEmail')}</span>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function Rooms({ view }: { view: ApartmentView }) {
  const t = useTranslations();
  const shown = view.authorizationsKnown ? view.rooms.filter((r) => r.allowed) : view.rooms;
  return (
    <Section id="rooms-heading" title={t('apartment.rooms.heading')}>
      {!view.authorizationsKnown ? <p className={mutedTextClass}>{t('apartment.rooms.unknown')}</p> : null}
      {shown.length === 0 ? (
        <p className={mutedTextClass}>{t('apartment.rooms.none')}</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label={t('apartment.rooms.quotaLabel')}>
          {shown.map((r) => (
            <li key={r.resourceId}>
              <Card className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  <Link className="font-medium underline-offset-2 hover:underline" href={`/systems/${view.system.deviceId}/resources/${r.resourceId}`}>
                    {r.name || t('apartment.unnamedRoom')}
                  </Link>{' '}
                  <span className={mutedTextClass}>· {t('apartment.kind', { kind: r.kind })}</span>
                </span>
                <Badge tone={r.atQuota ? 'danger' : 'neutral'}>{t('quota.badge', { held: r.held, quota: r.quota, atQuota: r.atQuota ? 'yes' : 'no' })}</Badge>
                <ClosedNotes notes={r.closures} timeZone={view.system.timeZone} />
              </Card>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function NextFree({ view, initial }: { view: ApartmentView; initial: NextFreeView }) {
  const { deviceId, timeZone } = view.system;
  const groupId = view.group.id;
  const kindId = useId();
  const partId = useId();
  const residentId = useId();
  const [kind, setKind] = useState<ResourceKind | ''>('');
  const [dayPart, setDayPart] = useState<DayPart | ''>('');
  const [resident, setResident] = useState<string>('');
  const search = new URLSearchParams({ ...(kind ? { kind } : {}), ...(dayPart ? { dayPart } : {}) }).toString();
  const chosen = resident || view.residents[0]?.userId || '';
  const t = useTranslations('apartment');
  return (
    <Section id="next-free-heading" title={t('nextFree.heading')}>
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex min-w-40 flex-col gap-1">
          <label htmlFor={kindId} className={labelClass}>
            {t('nextFree.kind')}
          </label>
          <select id={kindId} className={inputClass} value={kind} onChange={(e) => setKind(e.target.value as ResourceKind | '')}>
            <option value="">{t('nextFree.anyKind')}</option>
            {RESOURCE_KINDS.map((k) => (
              <option key={k} value={k}>
                {t('kind', { kind: k })}
              </option>
            ))}
          </select>
        </div>
        <div className="flex min-w-40 flex-col gap-1">
          <label htmlFor={partId} className={labelClass}>
            {t('nextFree.dayPart')}
          </label>
          <select id={partId} className={inputClass} value={dayPart} onChange={(e) => setDayPart(e.target.value as DayPart | '')}>
            <option value="">{t('nextFree.anyTime')}</option>
            {DAY_PARTS.map((p) => (
              <option key={p} value={p}>
                {t('nextFree.part', { part: p })}
              </option>
            ))}
          </select>
        </div>
        {view.residents.length > 1 ? (
          <div className="flex min-w-40 flex-col gap-1">
            <label htmlFor={residentId} className={labelClass}>
              {t('nextFree.bookFor')}
            </label>
            <select id={residentId} className={inputClass} value={chosen} onChange={(e) => setResident(e.target.value)}>
              {view.residents.map((r) => (
                <option key={r.userId} value={r.userId}>
                  {r.name || r.email || t('residents.unnamed')}
                </option>
              ))}
            </select>
          </div>
        ) : view.residents[0] ? (
          <p className={mutedTextClass}>{t('nextFree.bookingFor', { name: view.residents[0].name || view.residents[0].email || t('nextFree.theResident') })}</p>
        ) : null}
      </div>
      <NextFreeSlots deviceId={deviceId} groupId={groupId} residentUserId={chosen || null} search={search} initial={initial} timeZone={timeZone} showOutcomes={false} />
      <p className={mutedTextClass}>{t('timesIn', { timeZone })}</p>
    </Section>
  );
}

function Upcoming({ view }: { view: ApartmentView }) {
  const t = useTranslations('apartment');
  return (
    <Section id="upcoming-heading" title={t('upcoming.heading')}>
      {view.upcoming.length === 0 ? (
        <p className={mutedTextClass}>{t('upcoming.none')}</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {view.upcoming.map((b) => (
            <UpcomingBooking key={b.reservationId} booking={b} deviceId={view.system.deviceId} timeZone={view.system.timeZone} cancelling={view.open.some((r) => r.kind === 'cancel' && r.reservationId === b.reservationId)} />
          ))}
        </ul>
      )}
    </Section>
  );
}

function UpcomingBooking({ booking: b, deviceId, timeZone, cancelling }: { booking: ApartmentBooking; deviceId: string; timeZone: string; cancelling: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const cancel = useReservationRequest({ onAccepted: () => setConfirming(false) });
  const t = useTranslations('apartment');
  const { locale } = useWords();
  const day = formatDayLabel(wallClock(b.startMs, timeZone), locale);
  const room = roomWords(b, t);
  // A room the service no longer lists has no name to give: say so (the booking is still the service's, and cancelling is by its id).
  const label = b.roomListed ? t('upcoming.label', { day, time: b.timeLabel, room }) : t('upcoming.labelUnlisted', { day, time: b.timeLabel });
  return (
    <li>
      <Card className="flex flex-col gap-2 py-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span>
            <span className="font-medium">{t('upcoming.when', { day, time: b.timeLabel })}</span> <span className={mutedTextClass}>· {room}</span>
          </span>
          {cancelling ? (
            <Badge tone="neutral">{t('upcoming.cancelling')}</Badge>
          ) : b.cancellable && !confirming ? (
            <Button variant="secondary" aria-label={t('upcoming.cancelLabel', { label })} onClick={() => setConfirming(true)}>
              {t('upcoming.cancel')}
            </Button>
          ) : null}
        </div>
        <p className={mutedTextClass}>
          {t('upcoming.bookedBy', {
            by: b.bookedThroughPortal ? 'manager' : 'elsewhere',
            manager: b.bookedByName ?? '',
            managerKnown: b.bookedByName ? 'yes' : 'no',
            resident: b.residentName ?? '',
            residentKnown: b.residentName ? 'yes' : 'no',
          })}
        </p>
        {confirming && !cancelling ? (
          <div role="group" aria-label={t('upcoming.confirmLabel', { label })} className="flex flex-wrap items-center gap-2">
            <span className="text-sm">{b.roomListed ? t('upcoming.confirm') : t('upcoming.confirmUnlisted', { day, time: b.timeLabel })}</span>
            <Button variant="primary" disabled={cancel.pending} onClick={() => cancel.send({ kind: 'cancel', deviceId, reservationId: b.reservationId })}>
              {t('upcoming.yes')}
            </Button>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              {t('upcoming.keep')}
            </Button>
          </div>
        ) : null}
        {cancel.error ? (
          <p role="alert" className={errorTextClass}>
            {cancel.error}
          </p>
        ) : null}
      </Card>
    </li>
  );
}

/** The room of a booking: its name, "Unnamed room", or "Room no longer listed by the booking system". */
function roomWords(b: ApartmentBooking, t: ReturnType<typeof useTranslations<'apartment'>>): string {
  return b.roomListed ? b.resourceName || t('unnamedRoom') : t('unlistedRoom');
}

function Past({ view }: { view: ApartmentView }) {
  const t = useTranslations('apartment');
  const { locale } = useWords();
  const { timeZone } = view.system;
  return (
    <Section id="past-heading" title={t('past.heading', { weeks: view.pastWeeks })}>
      {view.past.length === 0 ? (
        <p className={mutedTextClass}>{t('past.none', { weeks: view.pastWeeks })}</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {view.past.map((b) => (
            <li key={b.reservationId} className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 py-1 text-sm dark:border-slate-800">
              <span>
                {t('upcoming.when', { day: formatDayLabel(wallClock(b.startMs, timeZone), locale), time: b.timeLabel })} · {roomWords(b, t)}
              </span>
              <Badge tone={b.status === 'Used' ? 'success' : b.status === 'Unused' ? 'danger' : 'neutral'}>{t('past.status', { status: b.status })}</Badge>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function History({ view }: { view: ApartmentView }) {
  const words = useWords();
  const t = useTranslations('apartment');
  const { timeZone } = view.system;
  return (
    <Section id="history-heading" title={t('history.heading')}>
      {view.history.length === 0 ? (
        <p className={mutedTextClass}>{t('history.none')}</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {view.history.map((r) => (
            <li key={r.id} className="flex flex-col gap-0.5 border-b border-slate-200 py-1 text-sm dark:border-slate-800">
              <span>
                <Badge tone={requestStatusText(r, words).tone}>{requestStatusLine(r, words)}</Badge> {requestWhat(r, timeZone, { room: true }, words)}
              </span>
              <span className={mutedTextClass}>
                {t('history.askedBy', {
                  name: r.requestedByName ?? '',
                  nameKnown: r.requestedByName ? 'yes' : 'no',
                  when: formatDayTime(Date.parse(r.createdAt), timeZone, words.locale),
                })}
              </span>
            </li>
          ))}
        </ul>
      )}
      {view.history.length >= view.historyLimit ? <p className={mutedTextClass}>{t('history.capped', { count: view.historyLimit })}</p> : null}
    </Section>
  );
}
