'use client';

import { useEffect, useRef, useState, useTransition } from 'react';
import { usePathname, useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { inputClass, labelClass } from '@/components/ui/styles';
import {
  SYSTEM_LIST_FILTERS,
  SYSTEM_LIST_GROUPS,
  SYSTEM_LIST_PAGE_SIZES,
  SYSTEM_LIST_QUERY_MAX,
  systemListQuery,
  type SystemListFilter,
  type SystemListParams,
} from '@/lib/client/system-list-params';

/** How long typing pauses before the list follows it. */
const TYPING_PAUSE_MS = 250;

/**
 * The systems list's search (as you type), grouping, filters and page size. Every change goes into
 * the address, and the server renders the page it names: typing replaces the history entry (one
 * per pause would flood it), the other controls add one, so the back button steps through them.
 */
export function SystemListControls({ params, areas }: { params: SystemListParams; areas: string[] }) {
  const t = useTranslations('systemList');
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = useTransition();
  const [q, setQ] = useState(params.q);
  const sent = useRef(params.q);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // The address changed without typing (back button, a shared link): the field follows it.
  useEffect(() => {
    if (params.q !== sent.current) {
      sent.current = params.q;
      setQ(params.q);
    }
  }, [params.q]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const go = (changes: Partial<SystemListParams>, mode: 'push' | 'replace') => {
    const href = `${pathname}${systemListQuery(params, changes)}`;
    startTransition(() => (mode === 'push' ? router.push(href, { scroll: false }) : router.replace(href, { scroll: false })));
  };

  const onType = (value: string) => {
    setQ(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      sent.current = value.trim();
      go({ q: value.trim() }, 'replace');
    }, TYPING_PAUSE_MS);
  };

  const toggle = (filter: SystemListFilter, on: boolean) =>
    go({ filters: on ? [...params.filters, filter] : params.filters.filter((f) => f !== filter) }, 'push');

  return (
    <form role="search" aria-label={t('searchLabel')} aria-busy={pending} className="flex flex-col gap-3" onSubmit={(e) => e.preventDefault()}>
      <div className="flex flex-col gap-1">
        <label htmlFor="system-search" className={labelClass}>{t('search')}</label>
        <input
          id="system-search"
          type="search"
          name="q"
          value={q}
          maxLength={SYSTEM_LIST_QUERY_MAX}
          autoComplete="off"
          onChange={(e) => onType(e.target.value)}
          className={inputClass}
          aria-describedby="system-search-hint"
        />
        <p id="system-search-hint" className="text-xs text-slate-600 dark:text-slate-400">{t('searchHint')}</p>
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        <div className="flex flex-col gap-1">
          <label htmlFor="system-group" className={labelClass}>{t('groupBy')}</label>
          <select id="system-group" value={params.group} onChange={(e) => go({ group: e.target.value as SystemListParams['group'] }, 'push')} className={inputClass}>
            {SYSTEM_LIST_GROUPS.map((g) => (
              <option key={g} value={g}>{t('group', { group: g })}</option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="system-area" className={labelClass}>{t('area')}</label>
          <select id="system-area" value={params.area ?? ''} onChange={(e) => go({ area: e.target.value || null }, 'push')} className={inputClass}>
            <option value="">{t('allAreas')}</option>
            {params.area && !areas.includes(params.area) ? <option value={params.area}>{params.area}</option> : null}
            {areas.map((a) => (
              <option key={a} value={a}>{a}</option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="system-size" className={labelClass}>{t('perPage')}</label>
          <select id="system-size" value={params.size} onChange={(e) => go({ size: Number(e.target.value) }, 'push')} className={inputClass}>
            {SYSTEM_LIST_PAGE_SIZES.map((s) => (
              <option key={s} value={s}>{s}</option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className="flex flex-wrap gap-x-4 gap-y-2">
        <legend className={`${labelClass} mb-1`}>{t('show')}</legend>
        {SYSTEM_LIST_FILTERS.map((f) => (
          <label key={f} className="inline-flex min-h-11 items-center gap-2 text-sm sm:min-h-0">
            <input type="checkbox" checked={params.filters.includes(f)} onChange={(e) => toggle(f, e.target.checked)} className="size-4" />
            {t('filter', { filter: f })}
          </label>
        ))}
      </fieldset>
    </form>
  );
}
