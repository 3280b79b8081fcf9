'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocale, useTranslations } from 'next-intl';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useRequestUpdates } from '@/components/booking/live-events';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorTextClass, inputClass, labelClass, mutedTextClass } from '@/components/ui/styles';
import { useErrorText } from '@/components/use-error-text';
import type { Locale } from '@/lib/i18n/config';
import { CLOSURE_REASON_MAX } from '@/lib/closures/schemas';
import { periodWords } from '@/lib/closures/period';
import type { ClosureItem, ClosurePreview, ClosureView } from '@/lib/closures/types';
import { fetchJson } from '@/lib/client/fetch-json';
import { newIdempotencyKey } from '@/lib/client/idempotency';
import { queryKeys } from '@/lib/client/query-keys';
import { formatList, apartmentNumber } from '@/lib/i18n/format';

interface Room {
  id: string;
  name: string;
}

interface Props {
  deviceId: string;
  timeZone: string;
  rooms: Room[];
  initial: ClosureView[];
}

/** A closure whose cancellations are still being sent or answered: followed closely. */
const busy = (c: ClosureView) => c.status === 'cancelling' || c.progress.sent > 0;

/**
 * The closures page's live part: the system's closures in force or to come (with each one's
 * progress and bookings, followed from the event stream and the progress endpoint) and the form
 * that previews and creates a new one.
 */
export function ClosuresManager({ deviceId, timeZone, rooms, initial }: Props) {
  const t = useTranslations('closures');
  const client = useQueryClient();
  const key = queryKeys.closures(deviceId);
  const closures = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => fetchJson<{ closures: ClosureView[] }>(`/api/systems/${deviceId}/closures`, { signal }),
    initialData: { closures: initial },
    // The progress endpoint is read while cancellations are on their way; the events make it prompt.
    refetchInterval: (query) => (query.state.data?.closures.some(busy) ? 1_500 : false),
  });
  useRequestUpdates((request) => {
    if (request.closureId && request.deviceId === deviceId) void client.invalidateQueries({ queryKey: key });
  });
  const list = closures.data.closures;
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="closures-current" className="flex flex-col gap-3">
        <h2 id="closures-current" className="text-lg font-semibold">
          {t('current')}
        </h2>
        {list.length === 0 ? <p className={mutedTextClass}>{t('none')}</p> : null}
        <ul className="flex flex-col gap-3">
          {list.map((closure) => (
            <li key={closure.id}>
              <ClosureCard deviceId={deviceId} timeZone={timeZone} closure={closure} />
            </li>
          ))}
        </ul>
      </section>
      <NewClosureForm deviceId={deviceId} timeZone={timeZone} rooms={rooms} />
    </div>
  );
}

function roomNames(closure: Pick<ClosureView, 'rooms'>, locale: Locale): string {
  return formatList(
    closure.rooms.map((r) => r.name ?? r.id),
    locale,
  );
}

function ClosureCard({ deviceId, timeZone, closure }: { deviceId: string; timeZone: string; closure: ClosureView }) {
  const t = useTranslations('closures');
  const tClosed = useTranslations('closedSlot');
  const locale = useLocale();
  const errorText = useErrorText();
  const client = useQueryClient();
  const [asking, setAsking] = useState(false);
  const headingId = useId();
  const lift = useMutation({
    mutationFn: () => fetchJson<{ closure: ClosureView }>(`/api/systems/${deviceId}/closures/${closure.id}`, { method: 'DELETE', idempotencyKey: newIdempotencyKey() }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.closures(deviceId) }),
  });
  const period = periodWords(Date.parse(closure.startTime), Date.parse(closure.endTime), timeZone, locale);
  return (
    <Card as="article" aria-labelledby={headingId} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex flex-col gap-1">
          <h3 id={headingId} className="text-base font-semibold">
            {tClosed('roomLine', { room: roomNames(closure, locale), period, reason: closure.reason })}
          </h3>
          <p className={mutedTextClass}>
            {closure.createdByName ? t('by', { name: closure.createdByName }) : t('byUnknown')} · {t(`status.${closure.status}`)}
          </p>
        </div>
        {asking ? null : (
          <Button variant="secondary" onClick={() => setAsking(true)} aria-label={`${t('lift')}: ${closure.reason}`}>
            {t('lift')}
          </Button>
        )}
      </div>
      {asking ? (
        <div role="group" aria-label={t('lift')} className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950">
          <p>{t('liftQuestion')}</p>
          <div className="flex gap-2">
            <Button onClick={() => lift.mutate()} disabled={lift.isPending}>
              {t('liftConfirm')}
            </Button>
            <Button variant="secondary" onClick={() => setAsking(false)} disabled={lift.isPending}>
              {t('liftKeep')}
            </Button>
          </div>
          {lift.error ? (
            <p role="alert" className={errorTextClass}>
              {errorText(lift.error)}
            </p>
          ) : null}
        </div>
      ) : null}
      <ClosureProgress closure={closure} timeZone={timeZone} />
    </Card>
  );
}

/** The progress bar ("3 of 5 cancelled") and each booking's outcome, announced as they change. */
function ClosureProgress({ closure, timeZone }: { closure: ClosureView; timeZone: string }) {
  const t = useTranslations('closures');
  const locale = useLocale();
  // Open while its cancellations are on their way when it is first shown (a closure just made); the reader decides after.
  const [open, setOpen] = useState(() => busy(closure));
  const { total, cancelled, sent, failed, skipped } = closure.progress;
  if (total === 0) return <p className={mutedTextClass}>{t('progress.nothing')}</p>;
  const handled = cancelled + failed + skipped;
  const others = [
    sent > 0 ? t('progress.sent', { count: sent }) : null,
    failed > 0 ? t('progress.failed', { count: failed }) : null,
    skipped > 0 ? t('progress.skipped', { count: skipped }) : null,
  ].filter((x): x is string => x !== null);
  const label = t('progress.label');
  return (
    <div className="flex flex-col gap-2">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={handled}
        aria-valuetext={t('progress.text', { cancelled, total })}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
      >
        <div className="h-full bg-brand-600 transition-[width] dark:bg-blue-400" style={{ width: `${(handled / total) * 100}%` }} />
      </div>
      <p className="text-sm font-medium" aria-live="polite">
        {t('progress.text', { cancelled, total })}
        {others.length > 0 ? ` (${formatList(others, locale)})` : null}
        {closure.status === 'done' && sent === 0 ? ` ${t('progress.done')}` : null}
      </p>
      <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)} className="text-sm">
        <summary className="cursor-pointer font-medium">{t('progress.outcomes')}</summary>
        <ul className="mt-2 flex flex-col gap-1" aria-live="polite">
          {closure.items.map((item) => (
            <li key={item.reservationId} className="flex flex-wrap gap-x-2">
              <span>{itemWords(item, timeZone, locale, t)}</span>
              <strong>{t(`item.${item.state}`)}</strong>
              {item.reason ? <ItemReason reason={item.reason} /> : null}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}

function ItemReason({ reason }: { reason: NonNullable<ClosureItem['reason']> }) {
  const errorText = useErrorText();
  return <span className={mutedTextClass}>{errorText(reason)}</span>;
}

type ClosuresT = ReturnType<typeof useTranslations<'closures'>>;

function holderWords(b: { apartment: string | null; residentName: string | null }, t: ClosuresT): string {
  const parts = [b.apartment ? t('preview.apartment', { apartment: apartmentNumber(b.apartment) }) : null, b.residentName].filter((x): x is string => Boolean(x));
  return parts.length > 0 ? parts.join(', ') : t('preview.unknownHolder');
}

function itemWords(item: ClosureItem, timeZone: string, locale: Locale, t: ClosuresT): string {
  const when = periodWords(Date.parse(item.startTime), Date.parse(item.endTime), timeZone, locale);
  return `${item.resourceName ?? ''} ${when}, ${holderWords(item, t)}:`.trim();
}

function NewClosureForm({ deviceId, timeZone, rooms }: { deviceId: string; timeZone: string; rooms: Room[] }) {
  const t = useTranslations('closures');
  const locale = useLocale();
  const errorText = useErrorText();
  const client = useQueryClient();
  const [chosen, setChosen] = useState<string[]>([]);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState(false);
  // One key per confirmed preview: a retry of a confirmation that got no answer reuses it.
  const createKey = useRef<string | null>(null);
  const formId = useId();
  const input = { resourceIds: chosen, from, to, reason };

  const preview = useMutation({
    mutationFn: () => fetchJson<{ preview: ClosurePreview }>(`/api/systems/${deviceId}/closures/preview`, { method: 'POST', idempotencyKey: newIdempotencyKey(), body: input }),
    onSuccess: () => {
      createKey.current = newIdempotencyKey();
      setCreated(false);
    },
  });
  const create = useMutation({
    mutationFn: () =>
      fetchJson<{ closure: ClosureView }>(`/api/systems/${deviceId}/closures`, { method: 'POST', idempotencyKey: createKey.current ?? newIdempotencyKey(), body: input }),
    onSuccess: async ({ closure }) => {
      client.setQueryData<{ closures: ClosureView[] }>(queryKeys.closures(deviceId), (old) => ({
        closures: [...(old?.closures ?? []).filter((c) => c.id !== closure.id), closure].sort((a, b) => a.startTime.localeCompare(b.startTime)),
      }));
      createKey.current = null;
      preview.reset();
      setChosen([]);
      setFrom('');
      setTo('');
      setReason('');
      setCreated(true);
      await client.invalidateQueries({ queryKey: queryKeys.closures(deviceId) });
    },
  });

  const onPreview = (event: FormEvent) => {
    event.preventDefault();
    if (chosen.length === 0) {
      setProblem(t('form.chooseRoom'));
      return;
    }
    setProblem(null);
    create.reset();
    preview.mutate();
  };
  const shown = preview.data?.preview;
  const toggle = (id: string, on: boolean) => {
    preview.reset();
    setChosen((old) => (on ? [...old, id] : old.filter((x) => x !== id)));
  };
  const edit = (set: (v: string) => void) => (value: string) => {
    preview.reset();
    set(value);
  };

  return (
    <section aria-labelledby={`${formId}-title`} className="flex flex-col gap-4">
      <h2 id={`${formId}-title`} className="text-lg font-semibold">
        {t('form.title')}
      </h2>
      {created ? (
        <p role="status" className="text-sm font-medium">
          {t('created')}
        </p>
      ) : null}
      <form onSubmit={onPreview} className="flex flex-col gap-4" noValidate>
        <fieldset className="flex flex-col gap-2">
          <legend className={labelClass}>{t('form.rooms')}</legend>
          {rooms.length === 0 ? <p className={mutedTextClass}>{t('form.noRooms')}</p> : null}
          <div className="flex flex-wrap gap-x-6 gap-y-2">
            {rooms.map((room) => (
              <label key={room.id} className="flex min-h-11 items-center gap-2 text-sm">
                <input type="checkbox" className="h-5 w-5" checked={chosen.includes(room.id)} onChange={(e) => toggle(room.id, e.target.checked)} />
                {room.name}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex flex-wrap gap-4">
          <label className="flex flex-col gap-1">
            <span className={labelClass}>{t('form.from')}</span>
            <input type="datetime-local" required className={inputClass} value={from} onChange={(e) => edit(setFrom)(e.target.value)} />
          </label>
          <label className="flex flex-col gap-1">
            <span className={labelClass}>{t('form.to')}</span>
            <input type="datetime-local" required className={inputClass} value={to} onChange={(e) => edit(setTo)(e.target.value)} />
          </label>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${formId}-reason`} className={labelClass}>
            {t('form.reason')}
          </label>
          <input
            id={`${formId}-reason`}
            type="text"
            required
            maxLength={CLOSURE_REASON_MAX}
            className={inputClass}
            value={reason}
            onChange={(e) => edit(setReason)(e.target.value)}
            aria-describedby={`${formId}-reason-hint`}
          />
          <p id={`${formId}-reason-hint`} className={mutedTextClass}>
            {t('form.reasonHint', { max: CLOSURE_REASON_MAX })}
          </p>
        </div>
        <div>
          <Button type="submit" disabled={preview.isPending}>
            {preview.isPending ? t('form.previewing') : t('form.preview')}
          </Button>
        </div>
        {problem || preview.error ? (
          <p role="alert" className={errorTextClass}>
            {problem ?? errorText(preview.error)}
          </p>
        ) : null}
      </form>
      {shown ? (
        <div className="flex flex-col gap-3">
          <table className="w-full border-collapse text-left text-sm">
            <caption className="mb-2 text-left text-base font-semibold">
              {t('preview.title')} — {periodWords(Date.parse(shown.startTime), Date.parse(shown.endTime), timeZone, locale)}
            </caption>
            <thead>
              <tr className="border-b border-slate-300 dark:border-slate-700">
                <th scope="col" className="py-1 pr-3">
                  {t('preview.room')}
                </th>
                <th scope="col" className="py-1 pr-3">
                  {t('preview.time')}
                </th>
                <th scope="col" className="py-1 pr-3">
                  {t('preview.holder')}
                </th>
                <th scope="col" className="py-1">
                  {t('preview.effect')}
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.bookings.map((b) => (
                <tr key={b.reservationId} className="border-b border-slate-200 dark:border-slate-800">
                  <td className="py-1 pr-3">{b.resourceName}</td>
                  <td className="py-1 pr-3">{periodWords(Date.parse(b.startTime), Date.parse(b.endTime), timeZone, locale)}</td>
                  <td className="py-1 pr-3">{holderWords(b, t)}</td>
                  <td className="py-1">{b.willCancel ? t('preview.willCancel') : t('preview.started')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {shown.bookings.length === 0 ? <p className={mutedTextClass}>{t('preview.none')}</p> : null}
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => create.mutate()} disabled={create.isPending}>
              {create.isPending ? t('preview.confirming') : t('preview.confirm', { count: shown.toCancel })}
            </Button>
            <Button variant="secondary" onClick={() => preview.reset()} disabled={create.isPending}>
              {t('preview.change')}
            </Button>
          </div>
          {create.error ? (
            <p role="alert" className={errorTextClass}>
              {errorText(create.error)}
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
