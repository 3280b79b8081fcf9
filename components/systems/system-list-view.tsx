import Link from 'next/link';
import { useFormatter, useTranslations } from 'next-intl';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { mutedTextClass, termClass } from '@/components/ui/styles';
import { StatusBadge } from '@/components/shell/status-badge';
import { systemListQuery } from '@/lib/client/system-list-params';
import type { SystemListPage, SystemListRow } from '@/lib/views/systems-list';

const linkClass =
  'text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 dark:text-blue-300';
const ROOMS_SHOWN = 3;

/** The rows of a page under their group's heading (a group may go on over the next page). */
function groupsOf(list: SystemListPage): { key: string | null; rows: SystemListRow[] }[] {
  const group = list.params.group;
  if (group === 'none') return [{ key: null, rows: list.rows }];
  const out: { key: string | null; rows: SystemListRow[] }[] = [];
  for (const row of list.rows) {
    const key = group === 'area' ? row.area : row.city;
    const last = out.at(-1);
    if (last && last.key === key) last.rows.push(row);
    else out.push({ key, rows: [row] });
  }
  return out;
}

/**
 * One page of the systems list: cards readable at 375 px, grouped when asked, and links to the
 * pages before and after. `linkBase` is where a system's own page is (`/systems`, `/admin/systems`).
 */
export function SystemListView({ list, linkBase, label, showDeviceId = false }: { list: SystemListPage; linkBase: string; label: string; showDeviceId?: boolean }) {
  const t = useTranslations('systemList');
  const format = useFormatter();
  const { params, total, pages } = list;
  const first = total === 0 ? 0 : (params.page - 1) * params.size + 1;
  const last = Math.min(total, params.page * params.size);
  const hrefOf = (page: number) => `${linkBase}${systemListQuery(params, { page })}`;
  return (
    <div className="flex flex-col gap-4">
      <p role="status" aria-live="polite" className={mutedTextClass}>
        {list.rows.length === 0 ? (params.page > 1 ? t('pageEmpty') : t('noMatch')) : t('showing', { first, last, total })}
        {params.filters.includes('free') && list.freeTodayPending ? ` ${t('freePending')}` : ''}
      </p>
      {groupsOf(list).map((g, i) => {
        const heading = g.key ?? (params.group === 'area' ? t('noArea') : t('noCity'));
        const id = `system-group-${i}`;
        const items = (
          <ul aria-label={g.key === null && params.group === 'none' ? label : heading} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {g.rows.map((s) => (
              <Card as="li" key={s.deviceId}>
                <h3 className="font-medium">
                  <Link href={`${linkBase}/${s.deviceId}`} className={linkClass}>{s.name}</Link>
                </h3>
                {s.street || s.city ? <p className="text-sm">{[s.street, s.city].filter(Boolean).join(', ')}</p> : null}
                {showDeviceId ? <p className="break-all font-mono text-xs text-slate-600 dark:text-slate-400">{s.deviceId}</p> : null}
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  {s.area ? (
                    <>
                      <dt className={termClass}>{t('area')}</dt>
                      <dd>{s.area}</dd>
                    </>
                  ) : null}
                  <dt className={termClass}>{t('rooms')}</dt>
                  <dd>
                    {s.rooms.length === 0
                      ? t('noRooms')
                      : s.rooms.slice(0, ROOMS_SHOWN).join(', ') + (s.rooms.length > ROOMS_SHOWN ? ` ${t('moreRooms', { count: s.rooms.length - ROOMS_SHOWN })}` : '')}
                  </dd>
                  <dt className={termClass}>{t('freeToday')}</dt>
                  <dd>{t('freeAnswer', { answer: s.freeToday })}</dd>
                  <dt className={termClass}>{t('copy')}</dt>
                  <dd className="flex flex-wrap gap-1">
                    {s.refreshedAt === null ? <Badge tone="neutral">{t('notLoaded')}</Badge> : <span>{t('loadedAt', { at: format.dateTime(new Date(s.refreshedAt), { dateStyle: 'short', timeStyle: 'short' }) })}</span>}
                    {s.incomplete ? <Badge tone="danger">{t('incomplete')}</Badge> : null}
                    {s.status !== 'active' ? <StatusBadge status={s.status} /> : null}
                  </dd>
                </dl>
              </Card>
            ))}
          </ul>
        );
        return params.group === 'none' ? (
          <div key={i}>{items}</div>
        ) : (
          <section key={i} aria-labelledby={id} className="flex flex-col gap-2">
            <h2 id={id} className="text-lg font-medium">{t('groupHeading', { group: params.group, name: heading })}</h2>
            {items}
          </section>
        );
      })}
      {pages > 1 || params.page > 1 ? (
        <nav aria-label={t('pagesLabel')} className="flex flex-wrap items-center gap-3 text-sm">
          {params.page > 1 ? <Link href={hrefOf(list.rows.length === 0 ? 1 : params.page - 1)} className={`${linkClass} min-h-11 content-center`} rel="prev">{t('previous')}</Link> : null}
          <span>{t('pageOf', { page: params.page, pages })}</span>
          {params.page < pages ? <Link href={hrefOf(params.page + 1)} className={`${linkClass} min-h-11 content-center`} rel="next">{t('next')}</Link> : null}
        </nav>
      ) : null}
    </div>
  );
}
