import { useLocale, useTranslations } from 'next-intl';
import Link from 'next/link';
import { formatDateRange, formatNumber, formatPercent } from '@/lib/i18n/format';
import type { ReportsOverview } from '@/lib/reports/load';
import { wallClock } from '@/lib/schedule/zoned';
import { mutedTextClass } from '../ui/styles';
import { ShareBars } from './report-charts';
import { FiguresList } from './system-report';

const thClass = 'border-b border-slate-300 px-2 py-1.5 text-left font-medium dark:border-slate-600';
const tdClass = 'border-b border-slate-200 px-2 py-1.5 dark:border-slate-800';
const numClass = `${tdClass} text-right tabular-nums`;

/** The manager's systems side by side for one period, with their sum. */
export function ReportsOverviewView({ overview, query }: { overview: ReportsOverview; query: string }) {
  const t = useTranslations('reports');
  const locale = useLocale();
  const pct = (share: number | null) => (share === null ? '–' : formatPercent(share, locale));
  const period = overview.period;
  const zone = overview.systems[0]?.system.timeZone ?? 'UTC';
  return (
    <div className="flex flex-col gap-8">
      {period ? (
        <p className={mutedTextClass}>
          {t('periodLine', {
            name: t(`presets.${period.kind}`),
            range: formatDateRange(wallClock(period.startMs, zone), wallClock(period.endMs - 1, zone), locale),
            zone,
          })}
        </p>
      ) : null}
      <section className="flex flex-col gap-3">
        <h2 className="text-xl font-semibold">{t('totalTitle')}</h2>
        <FiguresList figures={overview.total} />
      </section>
      <section className="flex flex-col gap-3">
        <h2 className="text-xl font-semibold">{t('systemsTitle')}</h2>
        <ShareBars
          title={t('systemSharesTitle')}
          items={overview.systems.map((s) => ({ key: s.system.deviceId, name: s.system.name, share: s.figures?.bookedShare ?? null }))}
        />
        <div className="overflow-x-auto">
          <table className="min-w-full border-collapse text-sm">
            <caption className="pb-1 text-left font-semibold">{t('systemsTable')}</caption>
            <thead>
              <tr>
                <th scope="col" className={thClass}>{t('system')}</th>
                <th scope="col" className={`${thClass} text-right`}>{t('bookedShare')}</th>
                <th scope="col" className={`${thClass} text-right`}>{t('bookings')}</th>
                <th scope="col" className={`${thClass} text-right`}>{t('used')}</th>
                <th scope="col" className={`${thClass} text-right`}>{t('noShows')}</th>
                <th scope="col" className={`${thClass} text-right`}>{t('noShowRate')}</th>
              </tr>
            </thead>
            <tbody>
              {overview.systems.map(({ system, figures, loading }) => (
                <tr key={system.deviceId}>
                  <th scope="row" className={`${tdClass} text-left font-normal`}>
                    <Link href={`/systems/${system.deviceId}/reports${query ? `?${query}` : ''}`} className="text-blue-700 underline underline-offset-2 dark:text-blue-300">
                      {system.name}
                    </Link>
                  </th>
                  {figures ? (
                    <>
                      <td className={numClass}>{pct(figures.bookedShare)}</td>
                      <td className={numClass}>{formatNumber(figures.counts.bookings, locale)}</td>
                      <td className={numClass}>{formatNumber(figures.counts.used, locale)}</td>
                      <td className={numClass}>{formatNumber(figures.counts.noShows, locale)}</td>
                      <td className={numClass}>{pct(figures.counts.noShowRate)}</td>
                    </>
                  ) : (
                    <td colSpan={5} className={tdClass}>{loading ? t('systemLoading') : t('systemUnavailable')}</td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
