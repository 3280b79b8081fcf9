import { useTranslations } from 'next-intl';
import Link from 'next/link';
import { PERIOD_PRESETS, type PeriodKind } from '@/lib/reports/period';
import { Button } from '../ui/button';
import { inputClass, labelClass } from '../ui/styles';

/**
 * The period choice: a link per preset, and a from/to form sent with GET, so that it works
 * without JavaScript and every report has its own URL.
 */
export function PeriodPicker({ basePath, current, from, to }: { basePath: string; current: PeriodKind | null; from: string; to: string }) {
  const t = useTranslations('reports');
  return (
    <div className="flex flex-col gap-3 print:hidden">
      <nav aria-label={t('periodNav')}>
        <ul className="flex flex-wrap gap-2">
          {PERIOD_PRESETS.map((preset) => {
            const active = preset === current;
            return (
              <li key={preset}>
                <Link
                  href={`${basePath}?period=${preset}`}
                  aria-current={active ? 'page' : undefined}
                  className={`inline-block rounded-md border px-3 py-1.5 text-sm ${active ? 'border-blue-700 bg-blue-700 text-white dark:border-blue-300 dark:bg-blue-300 dark:text-slate-950' : 'border-slate-300 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800'}`}
                >
                  {t(`presets.${preset}`)}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <form method="get" action={basePath} className="flex flex-wrap items-end gap-3" aria-label={t('customPeriod')}>
        <input type="hidden" name="period" value="custom" />
        <div>
          <label htmlFor="report-from" className={labelClass}>
            {t('from')}
          </label>
          <input id="report-from" name="from" type="date" defaultValue={from} required className={inputClass} />
        </div>
        <div>
          <label htmlFor="report-to" className={labelClass}>
            {t('to')}
          </label>
          <input id="report-to" name="to" type="date" defaultValue={to} required className={inputClass} />
        </div>
        <Button type="submit" variant="secondary">
          {t('showPeriod')}
        </Button>
      </form>
    </div>
  );
}
