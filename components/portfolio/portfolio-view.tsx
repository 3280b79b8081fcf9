import { useLocale, useTranslations } from 'next-intl';
import Link from 'next/link';
import type { Locale } from '@/lib/i18n/config';
import { formatDateRange, formatNumber, formatPercent } from '@/lib/i18n/format';
import type { LoadedSystem, PortfolioSystem } from '@/lib/reports/portfolio';
import type { PortfolioOverview } from '@/lib/reports/portfolio-load';
import { TREND_MONTH_CHOICES } from '@/lib/reports/portfolio';
import { wallClock } from '@/lib/schedule/zoned';
import { mutedTextClass, termClass } from '../ui/styles';

/** Booking systems per page of the systems table (the page stays small at 1,000 systems). */
export const PORTFOLIO_PAGE_SIZE = 50;
/** Idle rooms the page lists (the rooms download has every one). */
const IDLE_SHOWN = 50;

const thClass = 'border-b border-slate-300 px-2 py-1.5 text-left font-medium dark:border-slate-600';
const tdClass = 'border-b border-slate-200 px-2 py-1.5 dark:border-slate-800';
const numClass = `${tdClass} text-right tabular-nums`;
const numHeadClass = `${thClass} text-right`;
/** A table wider than the screen scrolls in its own region, reachable by keyboard (axe: scrollable-region-focusable). */
const scrollClass = 'overflow-x-auto focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500';
const linkClass = 'text-blue-700 underline underline-offset-2 dark:text-blue-300';

const pct = (share: number | null, locale: Locale) => (share === null ? '–' : formatPercent(share, locale));
const monthName = (key: string, locale: Locale) => {
  const [year, month] = key.split('-').map(Number);
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(year!, month! - 1, 1));
};

export interface PortfolioViewProps {
  overview: PortfolioOverview;
  /** The page's own query (period and months), kept by its links. */
  query: URLSearchParams;
  page: number;
}

/** The portfolio: every booking system the viewer may see, summed, ranked, over months, and one page of them in figures. */
export function PortfolioView({ overview, query, page }: PortfolioViewProps) {
  const t = useTranslations('portfolio');
  const tr = useTranslations('reports');
  const locale = useLocale();
  const { summary, period, timeZone } = overview;
  const with_ = (extra: Record<string, string>) => {
    const q = new URLSearchParams(query);
    for (const [k, v] of Object.entries(extra)) q.set(k, v);
    return q.toString();
  };
  const periodQuery = new URLSearchParams([...query].filter(([k]) => k === 'period' || k === 'from' || k === 'to')).toString();
  const reportHref = (deviceId: string) => `/systems/${deviceId}/reports${periodQuery ? `?${periodQuery}` : ''}`;
  const pages = Math.max(1, Math.ceil(overview.systems.length / PORTFOLIO_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pages);
  const shown = overview.systems.slice((current - 1) * PORTFOLIO_PAGE_SIZE, current * PORTFOLIO_PAGE_SIZE);
  const idle = overview.systems.flatMap((s) => (s.status === 'loaded' ? s.figures.rooms.filter((r) => r.idle).map((r) => ({ system: s.system, room: r })) : []));
  const systemLink = (s: PortfolioSystem) => (
    <Link href={s.status === 'loaded' ? reportHref(s.system.deviceId) : `/systems/${s.system.deviceId}`} className={linkClass}>
      {s.system.name}
    </Link>
  );

  const summaryItems: [string, string][] = [
    [t('systemsLoaded'), t('systemsLoadedValue', { loaded: formatNumber(summary.loaded, locale), total: formatNumber(overview.systems.length, locale) })],
    [tr('bookedShare'), pct(summary.total.bookedShare, locale)],
    [t('eveningShare'), pct(summary.total.evening.share, locale)],
    [t('weekendShare'), pct(summary.total.weekend.share, locale)],
    [tr('bookings'), formatNumber(summary.total.counts.bookings, locale)],
    [tr('noShows'), tr('noShowsValue', { count: formatNumber(summary.total.counts.noShows, locale), rate: pct(summary.total.counts.noShowRate, locale) })],
    [t('idleRooms'), t('idleRoomsValue', { idle: formatNumber(summary.idleRooms, locale), rooms: formatNumber(summary.rooms, locale) })],
  ];

  const rankings: { id: string; title: string; list: LoadedSystem[]; figure: (s: LoadedSystem) => string }[] = [
    { id: 'fullest', title: t('fullest'), list: summary.rankings.fullest, figure: (s) => pct(s.figures.total.bookedShare, locale) },
    { id: 'emptiest', title: t('emptiest'), list: summary.rankings.emptiest, figure: (s) => pct(s.figures.total.bookedShare, locale) },
    { id: 'evenings', title: t('fullestEvenings'), list: summary.rankings.fullestEvenings, figure: (s) => pct(s.figures.total.evening.share, locale) },
    { id: 'no-shows', title: t('highestNoShows'), list: summary.rankings.highestNoShows, figure: (s) => pct(s.figures.total.counts.noShowRate, locale) },
  ];
  const figureHead = (id: string) => (id === 'evenings' ? t('eveningShare') : id === 'no-shows' ? tr('noShowRate') : tr('bookedShare'));

  return (
    <div className="flex flex-col gap-8">
      <p className={mutedTextClass}>
        {tr('periodLine', {
          name: tr(`presets.${period.kind}`),
          range: formatDateRange(wallClock(period.startMs, timeZone), wallClock(period.endMs - 1, timeZone), locale),
          zone: timeZone,
        })}
      </p>

      <section aria-labelledby="portfolio-summary" className="flex flex-col gap-3">
        <h2 id="portfolio-summary" className="text-xl font-semibold">
          {t('summaryTitle')}
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {summaryItems.map(([term, value]) => (
            <div key={term} className="rounded-lg border border-slate-300 p-3 dark:border-slate-700">
              <dt className={`text-sm ${termClass}`}>{term}</dt>
              <dd className="text-xl font-semibold tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
        {summary.notLoaded > 0 ? <p className={mutedTextClass}>{t('notLoadedNote', { count: summary.notLoaded })}</p> : null}
        <p className={mutedTextClass}>{t('countingExplained')}</p>
      </section>

      <section aria-labelledby="portfolio-rankings" className="flex flex-col gap-3">
        <h2 id="portfolio-rankings" className="text-xl font-semibold">
          {t('rankingsTitle')}
        </h2>
        <div className="grid gap-6 md:grid-cols-2">
          {rankings.map((r) => (
            <div key={r.id} className={scrollClass} tabIndex={0} role="region" aria-label={r.title}>
              <table className="min-w-full border-collapse text-sm">
                <caption className="pb-1 text-left font-semibold">{r.title}</caption>
                <thead>
                  <tr>
                    <th scope="col" className={numHeadClass}>{t('rank')}</th>
                    <th scope="col" className={thClass}>{t('system')}</th>
                    <th scope="col" className={numHeadClass}>{figureHead(r.id)}</th>
                  </tr>
                </thead>
                <tbody>
                  {r.list.length === 0 ? (
                    <tr>
                      <td colSpan={3} className={tdClass}>{t('rankingNone')}</td>
                    </tr>
                  ) : (
                    r.list.map((s, i) => (
                      <tr key={s.system.deviceId}>
                        <td className={numClass}>{i + 1}</td>
                        <th scope="row" className={`${tdClass} text-left font-normal`}>{systemLink(s)}</th>
                        <td className={numClass}>{r.figure(s)}</td>
                      </tr>
                    ))
                  )}
                </tbody>
              </table>
            </div>
          ))}
        </div>
      </section>

      <section aria-labelledby="portfolio-trend" className="flex flex-col gap-3">
        <h2 id="portfolio-trend" className="text-xl font-semibold">
          {t('trendTitle')}
        </h2>
        <nav aria-label={t('trendNav')}>
          <ul className="flex flex-wrap gap-2">
            {TREND_MONTH_CHOICES.map((months) => (
              <li key={months}>
                <Link
                  href={`/portfolio?${with_({ months: String(months), page: '1' })}`}
                  aria-current={months === overview.months ? 'page' : undefined}
                  className={`inline-block rounded-md border px-3 py-1.5 text-sm ${months === overview.months ? 'border-blue-700 bg-blue-700 text-white dark:border-blue-300 dark:bg-blue-300 dark:text-slate-950' : 'border-slate-300 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800'}`}
                >
                  {t('trendLength', { months })}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className={scrollClass} tabIndex={0} role="region" aria-label={t('trendCaption')}>
          <table className="min-w-full border-collapse text-sm">
            <caption className="pb-1 text-left font-semibold">{t('trendCaption')}</caption>
            <thead>
              <tr>
                <th scope="col" className={thClass}>{t('month')}</th>
                <th scope="col" className={numHeadClass}>{tr('bookedShare')}</th>
                <th scope="col" className={numHeadClass}>{tr('bookings')}</th>
                <th scope="col" className={numHeadClass}>{tr('noShows')}</th>
                <th scope="col" className={numHeadClass}>{tr('noShowRate')}</th>
              </tr>
            </thead>
            <tbody>
              {summary.trend.map((m) => (
                <tr key={m.key}>
                  <th scope="row" className={`${tdClass} text-left font-normal`}>{monthName(m.key, locale)}</th>
                  <td className={numClass}>{pct(m.bookedShare, locale)}</td>
                  <td className={numClass}>{formatNumber(m.bookings, locale)}</td>
                  <td className={numClass}>{formatNumber(m.noShows, locale)}</td>
                  <td className={numClass}>{pct(m.noShowRate, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="portfolio-systems" className="flex flex-col gap-3">
        <h2 id="portfolio-systems" className="text-xl font-semibold">
          {t('systemsTitle')}
        </h2>
        <div className={scrollClass} tabIndex={0} role="region" aria-label={t('systemsCaption', { page: current, pages })}>
          <table className="min-w-full border-collapse text-sm">
            <caption className="pb-1 text-left font-semibold">{t('systemsCaption', { page: current, pages })}</caption>
            <thead>
              <tr>
                <th scope="col" className={thClass}>{t('system')}</th>
                <th scope="col" className={thClass}>{t('area')}</th>
                <th scope="col" className={numHeadClass}>{tr('bookedShare')}</th>
                <th scope="col" className={numHeadClass}>{t('eveningShare')}</th>
                <th scope="col" className={numHeadClass}>{t('weekendShare')}</th>
                <th scope="col" className={numHeadClass}>{tr('bookings')}</th>
                <th scope="col" className={numHeadClass}>{tr('noShowRate')}</th>
                <th scope="col" className={numHeadClass}>{t('idleRooms')}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((s) => (
                <tr key={s.system.deviceId}>
                  <th scope="row" className={`${tdClass} text-left font-normal`}>{systemLink(s)}</th>
                  <td className={tdClass}>{s.system.area ?? s.system.city ?? ''}</td>
                  {s.status === 'loaded' ? (
                    <>
                      <td className={numClass}>{pct(s.figures.total.bookedShare, locale)}</td>
                      <td className={numClass}>{pct(s.figures.total.evening.share, locale)}</td>
                      <td className={numClass}>{pct(s.figures.total.weekend.share, locale)}</td>
                      <td className={numClass}>{formatNumber(s.figures.total.counts.bookings, locale)}</td>
                      <td className={numClass}>{pct(s.figures.total.counts.noShowRate, locale)}</td>
                      <td className={numClass}>
                        {t('idleRoomsValue', { idle: formatNumber(s.figures.idleRooms, locale), rooms: formatNumber(s.figures.rooms.length, locale) })}
                      </td>
                    </>
                  ) : (
                    <td colSpan={6} className={tdClass}>{t('notLoaded')}</td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {pages > 1 ? (
          <nav aria-label={t('pagesNav')}>
            <ul className="flex flex-wrap gap-3 text-sm">
              {current > 1 ? (
                <li>
                  <Link href={`/portfolio?${with_({ page: String(current - 1) })}`} className={linkClass}>{t('previousPage')}</Link>
                </li>
              ) : null}
              {current < pages ? (
                <li>
                  <Link href={`/portfolio?${with_({ page: String(current + 1) })}`} className={linkClass}>{t('nextPage')}</Link>
                </li>
              ) : null}
            </ul>
          </nav>
        ) : null}
      </section>

      <section aria-labelledby="portfolio-idle" className="flex flex-col gap-3">
        <h2 id="portfolio-idle" className="text-xl font-semibold">
          {t('idleTitle')}
        </h2>
        {idle.length === 0 ? (
          <p className={mutedTextClass}>{t('idleNone')}</p>
        ) : (
          <div className={scrollClass} tabIndex={0} role="region" aria-label={t('idleCaption')}>
            <table className="min-w-full border-collapse text-sm">
              <caption className="pb-1 text-left font-semibold">{t('idleCaption')}</caption>
              <thead>
                <tr>
                  <th scope="col" className={thClass}>{t('system')}</th>
                  <th scope="col" className={thClass}>{t('room')}</th>
                </tr>
              </thead>
              <tbody>
                {idle.slice(0, IDLE_SHOWN).map(({ system, room }) => (
                  <tr key={`${system.deviceId}/${room.resourceId}`}>
                    <td className={tdClass}>
                      <Link href={reportHref(system.deviceId)} className={linkClass}>{system.name}</Link>
                    </td>
                    <th scope="row" className={`${tdClass} text-left font-normal`}>{room.name}</th>
                  </tr>
                ))}
              </tbody>
            </table>
            {idle.length > IDLE_SHOWN ? <p className={mutedTextClass}>{t('idleMore', { count: idle.length - IDLE_SHOWN })}</p> : null}
          </div>
        )}
      </section>

      <section aria-labelledby="portfolio-downloads" className="flex flex-col gap-3 print:hidden">
        <h2 id="portfolio-downloads" className="text-xl font-semibold">
          {t('exportTitle')}
        </h2>
        <ul className="flex flex-col gap-1 text-sm">
          {(['systems', 'rooms', 'months'] as const).map((table) => (
            <li key={table}>
              <a href={`/api/reports/portfolio?${with_({ file: `${table}.csv` })}`} className={linkClass} download>
                {t('exportCsv', { table })}
              </a>
            </li>
          ))}
          <li>
            <a href={`/api/reports/portfolio?${with_({ file: 'portfolio.xlsx' })}`} className={linkClass} download>
              {t('exportXlsx')}
            </a>
          </li>
        </ul>
      </section>
    </div>
  );
}
