import type { Metadata } from 'next';
import { getLocale, getTranslations } from 'next-intl/server';
import { PortfolioView } from '@/components/portfolio/portfolio-view';
import { PeriodPicker } from '@/components/reports/period-picker';
import { errorTextClass, mutedTextClass } from '@/components/ui/styles';
import { isApiError } from '@/lib/errors/api-error';
import { listAccessibleSystems } from '@/lib/auth/access';
import { requirePageUser } from '@/lib/api/session';
import { renderMessage } from '@/lib/i18n/server';
import { fallbackPeriod, loadPortfolio, periodInputOfPortfolio } from '@/lib/reports/portfolio-load';
import { parsePeriod } from '@/lib/reports/period';
import { portalViewDeps } from '@/lib/wiring';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('portfolio');
  return { title: t('title') };
}

/** The portfolio overview: a manager's systems (an admin's: all) side by side, from the mirror only. */
export default async function PortfolioPage({ searchParams }: Props) {
  const user = await requirePageUser('/portfolio');
  const params = await searchParams;
  const [t, locale, deps, systems] = await Promise.all([getTranslations('portfolio'), getLocale(), portalViewDeps(), listAccessibleSystems(user)]);
  const input = periodInputOfPortfolio(params);
  const nowMs = (deps.now?.() ?? new Date()).getTime();
  const parsed = parsePeriod(input, systems[0]?.timeZone ?? 'Europe/Stockholm', nowMs);
  const shown = parsed.ok ? parsed.period : fallbackPeriod(systems, nowMs);
  const page = Math.max(1, Math.floor(Number([params.page].flat()[0] ?? 1)) || 1);
  const query = new URLSearchParams(Object.entries(input).filter((e): e is [string, string] => Boolean(e[1])));

  let body;
  if (systems.length === 0) {
    body = <p className={mutedTextClass}>{t('noSystems')}</p>;
  } else {
    try {
      body = <PortfolioView overview={await loadPortfolio(deps, systems, input)} query={query} page={page} />;
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
        <p className={mutedTextClass}>{t('intro')}</p>
      </header>
      <PeriodPicker basePath="/portfolio" current={parsed.ok ? parsed.period.kind : null} from={shown.from} to={shown.to} />
      {body}
    </div>
  );
}
