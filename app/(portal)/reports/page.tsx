import type { Metadata } from 'next';
import Link from 'next/link';
import { getLocale, getTranslations } from 'next-intl/server';
import { PeriodPicker } from '@/components/reports/period-picker';
import { ReportsOverviewView } from '@/components/reports/reports-overview';
import { errorTextClass, mutedTextClass } from '@/components/ui/styles';
import { isApiError } from '@/lib/errors/api-error';
import { listAccessibleSystems } from '@/lib/auth/access';
import { requirePageUser } from '@/lib/api/session';
import { renderMessage } from '@/lib/i18n/server';
import { loadReportsOverview, periodInputOf } from '@/lib/reports/load';
import { defaultPeriod, parsePeriod } from '@/lib/reports/period';
import { portalViewDeps } from '@/lib/wiring';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('reports');
  return { title: t('title') };
}

export default async function ReportsPage({ searchParams }: Props) {
  const user = await requirePageUser('/reports');
  const [t, locale, deps, systems] = await Promise.all([getTranslations('reports'), getLocale(), portalViewDeps(), listAccessibleSystems(user)]);
  const input = periodInputOf(await searchParams);
  const nowMs = (deps.now?.() ?? new Date()).getTime();
  const zone = systems[0]?.timeZone ?? 'Europe/Stockholm';
  const parsed = parsePeriod(input, zone, nowMs);
  const shown = parsed.ok ? parsed.period : defaultPeriod(zone, nowMs);

  let body;
  if (!parsed.ok) {
    body = (
      <p role="alert" className={errorTextClass}>
        {await renderMessage(locale, parsed.message)}
      </p>
    );
  } else if (systems.length === 0) {
    body = <p className={mutedTextClass}>{t('noSystems')}</p>;
  } else {
    try {
      const overview = await loadReportsOverview(deps, systems, input);
      body = <ReportsOverviewView overview={overview} query={new URLSearchParams(Object.entries(input).filter((e): e is [string, string] => Boolean(e[1]))).toString()} />;
    } catch (error) {
      if (!isApiError(error) || error.code !== 'bad_request') throw error;
      body = (
        <p role="alert" className={errorTextClass}>
          {await renderMessage(locale, error.text)}
        </p>
      );
    }
  }
  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
        <p className={mutedTextClass}>
          {t('overviewIntro')} <Link href="/systems" className="underline underline-offset-2">{t('pickSystem')}</Link>
        </p>
      </header>
      <PeriodPicker basePath="/reports" current={parsed.ok ? parsed.period.kind : null} from={shown.from} to={shown.to} />
      {body}
    </div>
  );
}
