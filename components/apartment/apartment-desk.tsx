'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState } from 'react';
import { NextFreeSlots } from '@/components/booking/next-free-slots';
import { OutcomeNotices, requestWhat, useOutcomeNotices } from '@/components/booking/outcome-notices';
import { requestStatusLine, requestStatusText } from '@/components/booking/request-status';
import { FreshnessNote } from '@/components/freshness-note';
import { QueryError } from '@/components/query-error';
import { useReservationRequest } from '@/components/resource-week/reservation-request';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorTextClass, inputClass, labelClass, mutedTextClass } from '@/components/ui/styles';
import { fetchJson } from '@/lib/client/fetch-json';
import { queryKeys } from '@/lib/client/query-keys';
import { formatDayTime } from '@/lib/schedule/labels';
import { DAY_PARTS, type DayPart } from '@/lib/schedule/next-free';
import { RESOURCE_KINDS, type ResourceKind } from '@/lib/schedule/resource-kind';
import type { ApartmentBooking, ApartmentView, NextFreeView } from '@/lib/views/apartment-types';
import { useErrorText } from '@/components/use-error-text';

const KIND_WORDS: Record<ResourceKind, string> = { laundry: 'Laundry room', drying: 'Drying room', other: 'Other room' };
const DAY_PART_WORDS: Record<DayPart, string> = { morning: 'Morning (before 12)', afternoon: 'Afternoon (12–17)', evening: 'Evening (from 17)' };
/** The apartment page's live part: first data from the server, then kept current by React Query and the live events. */
export function ApartmentDesk({ initial, initialNextFree }: { initial: ApartmentView; initialNextFree: NextFreeView }) {
  const errorText = useErrorText();
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
      {query.isError ? (
        <QueryError
          title="Could not update this apartment"
          message={`${errorText(query.error)} What is shown is from the last successful load.`}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : null}
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
  return (
    <Section id="residents-heading" title="Residents">
      {!view.residentsKnown ? (
        <p className={mutedTextClass}>The reservation service gives no list of users for this system, so the residents are not known here.</p>
      ) : view.residents.length === 0 ? (
        <p className={mutedTextClass}>No residents are registered in this apartment.</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {view.residents.map((r) => (
            <li key={r.userId}>
              <Card className="flex flex-col gap-0.5 py-2">
                <span className="font-medium">{r.name || 'Name not given'}</span>
                <span className={`${mutedTextClass} break-all`}>{r.email || 'No e-mail address'}</span>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function Rooms({ view }: { view: ApartmentView }) {
  const shown = view.authorizationsKnown ? view.rooms.filter((r) => r.allowed) : view.rooms;
  return (
    <Section id="rooms-heading" title="May book">
      {!view.authorizationsKnown ? (
        <p className={mutedTextClass}>The reservation service did not say which rooms this apartment may book; it checks that itself when a booking is sent. All rooms are listed.</p>
      ) : null}
      {shown.length === 0 ? (
        <p className={mutedTextClass}>This apartment may not book any room.</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label="Quota per room">
          {shown.map((r) => (
            <li key={r.resourceId}>
              <Card className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  <Link className="font-medium underline-offset-2 hover:underline" href={`/systems/${view.system.deviceId}/resources/${r.resourceId}`}>
                    {r.name || 'Unnamed room'}
                  </Link>{' '}
                  <span className={mutedTextClass}>· {KIND_WORDS[r.kind]}</span>
                </span>
                <Badge tone={r.atQuota ? 'danger' : 'neutral'}>
                  {r.held} of {r.quota} future bookings{r.atQuota ? ' — at the quota' : ''}
                </Badge>
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
  return (
    <Section id="next-free-heading" title="Next free slots">
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex min-w-40 flex-col gap-1">
          <label htmlFor={kindId} className={labelClass}>
            Room kind
          </label>
          <select id={kindId} className={inputClass} value={kind} onChange={(e) => setKind(e.target.value as ResourceKind | '')}>
            <option value="">Any room</option>
            {RESOURCE_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_WORDS[k]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex min-w-40 flex-col gap-1">
          <label htmlFor={partId} className={labelClass}>
            Time of day
          </label>
          <select id={partId} className={inputClass} value={dayPart} onChange={(e) => setDayPart(e.target.value as DayPart | '')}>
            <option value="">Any time</option>
            {DAY_PARTS.map((p) => (
              <option key={p} value={p}>
                {DAY_PART_WORDS[p]}
              </option>
            ))}
          </select>
        </div>
        {view.residents.length > 1 ? (
          <div className="flex min-w-40 flex-col gap-1">
            <label htmlFor={residentId} className={labelClass}>
              Book for
            </label>
            <select id={residentId} className={inputClass} value={chosen} onChange={(e) => setResident(e.target.value)}>
              {view.residents.map((r) => (
                <option key={r.userId} value={r.userId}>
                  {r.name || r.email || 'Unnamed resident'}
                </option>
              ))}
            </select>
          </div>
        ) : view.residents[0] ? (
          <p className={mutedTextClass}>Booking for {view.residents[0].name || view.residents[0].email || 'the resident'}.</p>
        ) : null}
      </div>
      <NextFreeSlots deviceId={deviceId} groupId={groupId} residentUserId={chosen || null} search={search} initial={initial} timeZone={timeZone} showOutcomes={false} />
      <p className={mutedTextClass}>Times in {timeZone}.</p>
    </Section>
  );
}

function Upcoming({ view }: { view: ApartmentView }) {
  return (
    <Section id="upcoming-heading" title="Upcoming bookings">
      {view.upcoming.length === 0 ? (
        <p className={mutedTextClass}>No upcoming bookings.</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {view.upcoming.map((b) => (
            <UpcomingBooking key={b.reservationId} booking={b} deviceId={view.system.deviceId} cancelling={view.open.some((r) => r.kind === 'cancel' && r.reservationId === b.reservationId)} />
          ))}
        </ul>
      )}
    </Section>
  );
}

function UpcomingBooking({ booking: b, deviceId, cancelling }: { booking: ApartmentBooking; deviceId: string; cancelling: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const cancel = useReservationRequest({ onAccepted: () => setConfirming(false) });
  const label = `${b.dayLabel}, ${b.timeLabel} in ${b.resourceName}`;
  return (
    <li>
      <Card className="flex flex-col gap-2 py-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span>
            <span className="font-medium">
              {b.dayLabel}, {b.timeLabel}
            </span>{' '}
            <span className={mutedTextClass}>· {b.resourceName}</span>
          </span>
          {cancelling ? (
            <Badge tone="neutral">Cancelling…</Badge>
          ) : b.cancellable && !confirming ? (
            <Button variant="secondary" aria-label={`Cancel ${label}`} onClick={() => setConfirming(true)}>
              Cancel
            </Button>
          ) : null}
        </div>
        <p className={mutedTextClass}>
          Booked by {b.bookedBy}
          {b.residentName ? ` for ${b.residentName}` : ''}.
        </p>
        {confirming && !cancelling ? (
          <div role="group" aria-label={`Confirm cancelling ${label}`} className="flex flex-wrap items-center gap-2">
            <span className="text-sm">Cancel this booking?</span>
            <Button variant="primary" disabled={cancel.pending} onClick={() => cancel.send({ kind: 'cancel', deviceId, reservationId: b.reservationId })}>
              Yes, cancel it
            </Button>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Keep it
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

function Past({ view }: { view: ApartmentView }) {
  return (
    <Section id="past-heading" title="Past 8 weeks">
      {view.past.length === 0 ? (
        <p className={mutedTextClass}>No bookings in the last eight weeks.</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {view.past.map((b) => (
            <li key={b.reservationId} className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 py-1 text-sm dark:border-slate-800">
              <span>
                {b.dayLabel}, {b.timeLabel} · {b.resourceName}
              </span>
              <Badge tone={b.status === 'Used' ? 'success' : b.status === 'Unused' ? 'danger' : 'neutral'}>
                {b.status === 'Used' ? 'Used' : b.status === 'Unused' ? 'Unused (no-show)' : 'Status unknown'}
              </Badge>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function History({ view }: { view: ApartmentView }) {
  return (
    <Section id="history-heading" title="Requests from the portal">
      {view.history.length === 0 ? (
        <p className={mutedTextClass}>The portal has made no requests for this apartment.</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {view.history.map((r) => (
            <li key={r.id} className="flex flex-col gap-0.5 border-b border-slate-200 py-1 text-sm dark:border-slate-800">
              <span>
                <Badge tone={requestStatusText(r).tone}>{requestStatusLine(r)}</Badge> {requestWhat(r, view.system.timeZone, { room: true })}
              </span>
              <span className={mutedTextClass}>
                Asked by {r.requestedByName ?? 'a manager'} on {formatDayTime(Date.parse(r.createdAt), view.system.timeZone)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {view.history.length >= view.historyLimit ? <p className={mutedTextClass}>The newest {view.historyLimit} are shown; the Requests page has them all.</p> : null}
    </Section>
  );
}
