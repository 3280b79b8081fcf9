'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { type FormEvent, useId } from 'react';
import { fetchJson } from '@/lib/client/fetch-json';
import { queryKeys } from '@/lib/client/query-keys';
import {
  hasFilters,
  REQUEST_STATUS_FILTERS,
  REQUESTS_SEARCH_MAX_LENGTH,
  requestsSearch,
  type RequestFilters,
} from '@/lib/client/request-filters';
import type { RequestView } from '@/lib/events/types';
import { formatClock, formatDayTime, apartmentNumber } from '@/lib/i18n/format';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorTextClass, inputClass, labelClass, mutedTextClass, termClass } from '@/components/ui/styles';
import type { RequestsPageData } from './live-events';
import { requestStatusText } from './request-status';
import { anonymisedResidentWords, roomKnown, useWords, type Words } from './words';
import { useErrorText } from '@/components/use-error-text';

/** A request as listed; `note` arrives once bookings carry one (optional until then). */
type ListedRequest = RequestView & { note?: string | null };

/** Table cells, and the smaller second line some of them have. */
const CELL = 'py-2 pr-3';
const SUBLINE = 'block text-xs text-slate-600 dark:text-slate-400';
const LINK = 'font-medium text-brand-700 underline underline-offset-2 hover:bg-brand-50 dark:text-blue-300 dark:hover:bg-slate-800';
const PAGE_LINK =
  'inline-flex min-h-9 items-center rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800';

export interface RequestsListProps {
  systems: { deviceId: string; name: string; timeZone: string }[];
  /** The filters in the URL: as parsed, or as typed when the server refused them (to correct them). */
  filters: RequestFilters | Record<keyof RequestFilters, string | undefined>;
  /** The search of this page, cursor included ("?status=failed&before=…"); its query key. */
  search: string;
  /** The page the server rendered, or null when the filters were refused. */
  initial: RequestsPageData | null;
  /** Why the filters were refused, in the server's words. */
  error: string | null;
  /** Whether this is a page further back than the newest. */
  paged: boolean;
  /** The time zone whose days the date filter means. */
  dateZone: string;
  /** A page size other than the default, kept in the paging links. */
  pageSize?: number;
}

/** The Requests page: filters kept in the URL, a page of requests newest first, updated live. */
export function RequestsList({ systems, filters, search, initial, error, paged, dateZone, pageSize }: RequestsListProps) {
  const errorText = useErrorText();
  const query = useQuery({
    queryKey: queryKeys.requests(search),
    queryFn: ({ signal }) => fetchJson<RequestsPageData>(`/api/requests${search}`, { signal }),
    initialData: initial ?? undefined,
    enabled: error === null,
  });
  const parsed = filters as RequestFilters;
  const page = query.data;
  const residentName = parsed.resident ? page?.requests.find((r) => r.residentUserId === parsed.resident)?.residentName : null;
  const t = useTranslations('requests');
  return (
    <div className="flex flex-col gap-4">
      <FiltersForm systems={systems} filters={filters} dateZone={dateZone} pageSize={pageSize} residentName={residentName ?? null} />
      {error !== null ? (
        <div role="alert" className="flex flex-col items-start gap-2 rounded-lg border border-red-300 bg-red-50 p-4 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50">
          <p className="font-semibold">{t('refused')}</p>
          <p className="text-sm">{error}</p>
          <Link href="/requests" className="text-sm font-medium underline underline-offset-2">
            {t('clearTheFilters')}
          </Link>
        </div>
      ) : query.isError ? (
        <p role="alert" className={errorTextClass}>
          {errorText(query.error)}
        </p>
      ) : !page ? (
        <p className={mutedTextClass}>{t('loading')}</p>
      ) : (
        <>
          <Results systems={systems} filters={parsed} requests={page.requests} paged={paged} />
          <Pager filters={parsed} page={page} paged={paged} pageSize={pageSize} />
        </>
      )}
    </div>
  );
}

function FiltersForm({
  systems,
  filters,
  dateZone,
  pageSize,
  residentName,
}: Pick<RequestsListProps, 'systems' | 'filters' | 'dateZone' | 'pageSize'> & { residentName: string | null }) {
  const router = useRouter();
  const t = useTranslations('requests');
  const ids = { q: useId(), system: useId(), status: useId(), from: useId(), to: useId(), qHint: useId(), dateHint: useId() };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: keyof RequestFilters) => {
      const v = form.get(name);
      return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
    };
    // Typed values go to the server as they are: it says what is wrong with them, if anything.
    const next = { deviceId: value('deviceId'), status: value('status'), resident: value('resident'), from: value('from'), to: value('to'), q: value('q') };
    router.push(`/requests${requestsSearch(next as RequestFilters, {}, pageSize)}`);
  };
  return (
    <form role="search" aria-label={t('filter.label')} action="/requests" method="get" onSubmit={submit} className="flex flex-col gap-3" noValidate>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <div className="flex flex-col gap-1 sm:col-span-2">
          <label htmlFor={ids.q} className={labelClass}>
            {t('filter.search')}
          </label>
          <input
            id={ids.q}
            name="q"
            type="search"
            defaultValue={filters.q ?? ''}
            maxLength={REQUESTS_SEARCH_MAX_LENGTH}
            autoComplete="off"
            aria-describedby={ids.qHint}
            className={inputClass}
          />
          <p id={ids.qHint} className="text-xs text-slate-600 dark:text-slate-400">
            {t('filter.searchHint')}
          </p>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.system} className={labelClass}>
            {t('filter.system')}
          </label>
          <select id={ids.system} name="deviceId" defaultValue={filters.deviceId ?? ''} className={inputClass}>
            <option value="">{t('filter.allSystems')}</option>
            {systems.map((s) => (
              <option key={s.deviceId} value={s.deviceId}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.status} className={labelClass}>
            {t('filter.status')}
          </label>
          <select id={ids.status} name="status" defaultValue={filters.status ?? ''} className={inputClass}>
            <option value="">{t('filter.anyStatus')}</option>
            {REQUEST_STATUS_FILTERS.map((s) => (
              <option key={s} value={s}>
                {t('filter.statusOption', { status: s })}
              </option>
            ))}
            {/* A value the server refused stays selectable, so the form shows what was asked. */}
            {filters.status && !(REQUEST_STATUS_FILTERS as readonly string[]).includes(filters.status) ? <option value={filters.status}>{filters.status}</option> : null}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.from} className={labelClass}>
            {t('filter.from')}
          </label>
          <input id={ids.from} name="from" type="date" defaultValue={filters.from ?? ''} aria-describedby={ids.dateHint} className={inputClass} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.to} className={labelClass}>
            {t('filter.to')}
          </label>
          <input id={ids.to} name="to" type="date" defaultValue={filters.to ?? ''} aria-describedby={ids.dateHint} className={inputClass} />
        </div>
        <p id={ids.dateHint} className="text-xs text-slate-600 sm:col-span-2 sm:self-end dark:text-slate-400">
          {t('filter.dateHint', { timeZone: dateZone })}
        </p>
      </div>
      {filters.resident ? (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <input type="hidden" name="resident" value={filters.resident} />
          <span>{t.rich('filter.onlyFor', { name: residentName ?? t('filter.chosenResident'), strong: (c) => <strong>{c}</strong> })}</span>
          <Link href={`/requests${requestsSearch({ ...(filters as RequestFilters), resident: undefined })}`} className={LINK}>
            {t('filter.allResidents')}
          </Link>
        </div>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit">{t('filter.apply')}</Button>
        {hasFilters(filters as RequestFilters) ? (
          <Link href="/requests" className={LINK}>
            {t('filter.clear')}
          </Link>
        ) : null}
      </div>
    </form>
  );
}

/** The list itself: one card per request on phones, a table from 768 px. */
export function Results({ systems, filters, requests, paged }: { systems: RequestsListProps['systems']; filters: RequestFilters; requests: ListedRequest[]; paged: boolean }) {
  const byId = new Map(systems.map((s) => [s.deviceId, s]));
  const words = useWords();
  const t = useTranslations('requests');
  if (requests.length === 0) {
    return (
      <p className={mutedTextClass} role="status">
        {hasFilters(filters) ? t('empty.filtered') : paged ? t('empty.noMore') : t('empty.none')}
      </p>
    );
  }
  const rows = requests.map((r) => describe(r, byId.get(r.deviceId), filters, words));
  return (
    <>
      {/* Phones: one card per request, every field on its own line (nothing to scroll sideways). */}
      <ul aria-label={t('listLabel')} className="flex flex-col gap-3 md:hidden">
        {rows.map((row) => (
          <Card as="li" key={row.id} aria-label={t('cardLabel', { what: row.what, status: row.status.label })} className="flex flex-col gap-2 break-words">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <span className="font-semibold">{row.what}</span>
              <StatusBadge status={row.status} />
            </div>
            <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
              {row.status.detail ? (
                <>
                  <dt className={termClass}>{row.failed ? t('field.why') : t('field.state')}</dt>
                  <dd>{row.status.detail}</dd>
                </>
              ) : null}
              <dt className={termClass}>{t('field.system')}</dt>
              <dd>{row.systemName}</dd>
              <dt className={termClass}>{t('field.for')}</dt>
              <dd>{row.apartment ? t('forWithApartment', { name: row.forWhom, apartment: apartmentNumber(row.apartment) }) : row.forWhom}</dd>
              <dt className={termClass}>{t('field.slot')}</dt>
              <dd>{row.slot}</dd>
              <dt className={termClass}>{t('field.askedBy')}</dt>
              <dd>{row.askedBy}</dd>
              <dt className={termClass}>{t('field.when')}</dt>
              <dd>{row.when}</dd>
              {row.note ? (
                <>
                  <dt className={termClass}>{t('field.note')}</dt>
                  <dd className="whitespace-pre-line">{row.note}</dd>
                </>
              ) : null}
            </dl>
            {row.residentHref ? (
              <Link href={row.residentHref} className={`${LINK} self-start text-sm`}>
                {t('onlyForLink', { name: row.forWhom })}
              </Link>
            ) : null}
          </Card>
        ))}
      </ul>
      <div className="hidden md:block">
        <table className="w-full table-fixed text-left text-sm">
          <caption className="sr-only">{t('caption')}</caption>
          <thead>
            <tr className="border-b border-slate-300 dark:border-slate-700">
              <th scope="col" className={`${CELL} w-[22%]`}>{t('field.status')}</th>
              <th scope="col" className={`${CELL} w-[20%]`}>{t('field.what')}</th>
              <th scope="col" className={`${CELL} w-[16%]`}>{t('field.for')}</th>
              <th scope="col" className={`${CELL} w-[16%]`}>{t('field.slot')}</th>
              <th scope="col" className={`${CELL} w-[12%]`}>{t('field.askedBy')}</th>
              <th scope="col" className={`${CELL} w-[14%]`}>{t('field.when')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} className="break-words border-b border-slate-200 align-top dark:border-slate-800">
                <td className={CELL}>
                  <StatusBadge status={row.status} />
                  {row.status.detail ? <span className={row.failed ? 'mt-1 block text-xs text-red-800 dark:text-red-200' : SUBLINE}>{row.status.detail}</span> : null}
                </td>
                <td className={CELL}>
                  {row.what}
                  <span className={SUBLINE}>{row.systemName}</span>
                  {row.note ? <span className={`${SUBLINE} whitespace-pre-line`}>{t('noteLine', { note: row.note })}</span> : null}
                </td>
                <td className={CELL}>
                  {row.residentHref ? (
                    <Link href={row.residentHref} className={LINK}>
                      {row.forWhom}
                      <span className="sr-only"> {t('onlyTheirs')}</span>
                    </Link>
                  ) : (
                    row.forWhom
                  )}
                  {row.apartment ? <span className={SUBLINE}>{t('apartmentLine', { apartment: apartmentNumber(row.apartment) })}</span> : null}
                </td>
                <td className={CELL}>{row.slot}</td>
                <td className={CELL}>{row.askedBy}</td>
                <td className={CELL}>{row.when}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function StatusBadge({ status }: { status: ReturnType<typeof requestStatusText> }) {
  return (
    <Badge tone={status.tone} size="xs">
      {status.label}
    </Badge>
  );
}

/** A request in the words both layouts show. */
function describe(r: ListedRequest, system: RequestsListProps['systems'][number] | undefined, filters: RequestFilters, words: Words) {
  const { t, locale } = words;
  const tz = system?.timeZone ?? 'UTC';
  const note = typeof r.note === 'string' && r.note.trim() !== '' ? r.note.trim() : null;
  return {
    id: r.id,
    status: requestStatusText(r, words),
    failed: r.status === 'failed',
    what: t('requests.what', { kind: r.kind, room: r.resourceName ?? '', roomKnown: roomKnown(r) }),
    systemName: system?.name ?? '',
    // An anonymised request's name says its apartment already, in the reader's language.
    forWhom: r.residentAnonymised ? anonymisedResidentWords(r.residentApartment, words) : (r.residentName ?? t('requests.aResident')),
    apartment: r.residentAnonymised ? null : (r.residentApartment ?? null),
    residentHref: r.residentUserId && filters.resident !== r.residentUserId ? `/requests${requestsSearch({ ...filters, resident: r.residentUserId })}` : null,
    slot: r.startTime && r.endTime ? `${formatDayTime(Date.parse(r.startTime), tz, locale)}–${formatClock(Date.parse(r.endTime), tz)}` : '—',
    askedBy: r.requestedByName ?? t('requests.someone'),
    when: formatDayTime(Date.parse(r.createdAt), tz, locale),
    note,
  };
}

function Pager({ filters, page, paged, pageSize }: { filters: RequestFilters; page: RequestsPageData; paged: boolean; pageSize: number | undefined }) {
  const t = useTranslations('requests');
  if (!paged && !page.older) return null;
  return (
    <nav aria-label={t('pager.label')} className="flex flex-wrap items-center gap-2">
      {paged ? (
        <Link href={`/requests${requestsSearch(filters, {}, pageSize)}`} className={PAGE_LINK}>
          {t('pager.newest')}
        </Link>
      ) : null}
      {page.newer ? (
        <Link href={`/requests${requestsSearch(filters, { after: page.newer }, pageSize)}`} className={PAGE_LINK}>
          {t('pager.newer')}
        </Link>
      ) : null}
      {page.older ? (
        <Link href={`/requests${requestsSearch(filters, { before: page.older }, pageSize)}`} className={PAGE_LINK}>
          {t('pager.older')}
        </Link>
      ) : null}
    </nav>
  );
}
