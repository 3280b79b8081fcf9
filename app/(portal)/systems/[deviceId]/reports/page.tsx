import type { Metadata } from 'next';
import { getLocale, getTranslations } from 'next-intl/server';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { PeriodPicker } from '@/components/reports/period-picker';
import { SystemReportView } from '@/components/reports/system-report';
import { errorTextClass, mutedTextClass } from '@/components/ui/styles';
import { isApiError } from '@/lib/errors/api-error';
import { requirePageUser } from '@/lib/api/session';
import { formatDateRange } from '@/lib/i18n/format';
import { renderMessage } from '@/lib/i18n/server';
import { loadSystemReport, periodInputOf } from '@/lib/reports/load';
import { defaultPeriod, parsePeriod } from '@/lib/reports/period';
import { wallClock } from '@/lib/schedule/zoned';
import { portalViewDeps } from '@/lib/wiring';
import { pageSystem } from '@/lib/views/page-access';

type Props = { params: Promise<{ deviceId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { deviceId } = await params;
  const user = await requirePageUser(`/systems/${deviceId}/reports`);
  const system = await pageSystem(user, deviceId);
  const t = await getTranslations('reports');
  return { title: t('systemTitle', { system: system.name }) };
}

export default async function SystemReportPage({ params, searchParams }: Props) {
  const { deviceId } = await params;
  const user = await requirePageUser(`/systems/${deviceId}/reports`);
  const system = await pageSystem(user, deviceId);
  const [t, ts, locale, deps] = await Promise.all([getTranslations('reports'), getTranslations('systems'), getLocale(), portalViewDeps()]);
  const nowMs = (deps.now?.() ?? new Date()).getTime();
  const parsed = parsePeriod(periodInputOf(await searchParams), system.timeZone, nowMs);
  const basePath = `/systems/${system.deviceId}/reports`;
  const shown = parsed.ok ? parsed.period : defaultPeriod(system.timeZone, nowMs);

  let body;
  if (!parsed.ok) {
    body = (
      <p role="alert" className={errorTextClass}>
        {await renderMessage(locale, parsed.message)}
      </p>
    );
  } else {
    try {
      const { report } = await loadSystemReport(deps, system, parsed.period);
      body = <SystemReportView deviceId={system.deviceId} period={parsed.period} report={report} />;
    } catch (error) {
      if (!isApiError(error) || error.code !== 'service_unavailable') throw error;
      body = <p className={mutedTextClass}>{await renderMessage(locale, error.text)}</p>;
    }
  }
  const range = formatDateRange(wallClock(shown.startMs, system.timeZone), wallClock(shown.endMs - 1, system.timeZone), locale);
  return (
    <div className="flex flex-col gap-6">
      <Breadcrumbs parents={[{ label: ts('title'), href: '/systems' }, { label: system.name, href: `/systems/${system.deviceId}` }]} current={t('title')} />
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{t('systemTitle', { system: system.name })}</h1>
        {parsed.ok ? <p className={mutedTextClass}>{t('periodLine', { name: t(`presets.${parsed.period.kind}`), range, zone: system.timeZone })}</p> : null}
      </header>
      <PeriodPicker basePath={basePath} current={parsed.ok ? parsed.period.kind : null} from={shown.from} to={shown.to} />
      {body}
    </div>
  );
}
