import { useLocale, useTranslations } from 'next-intl';
import { formatNumber } from '@/lib/i18n/format';
import type { Locale } from '@/lib/i18n/config';
import type { LoadProgress } from '@/lib/mirror/progress-estimate';
import { ProgressBar } from '@/components/ui/progress-bar';
import { cardClass, mutedTextClass } from '@/components/ui/styles';

type LoadT = ReturnType<typeof useTranslations<'mirrorLoad'>>;

/** "about 9 min left", from the seconds left (null: not known yet). */
export function timeLeftText(etaSeconds: number | null, t: LoadT, locale: Locale): string {
  if (etaSeconds === null) return t('timeLeftUnknown');
  if (etaSeconds < 60) return t('timeLeftUnderMinute');
  const minutes = Math.round(etaSeconds / 60);
  if (minutes < 90) return t('timeLeftMinutes', { minutes: formatNumber(minutes, locale) });
  return t('timeLeftHours', { hours: formatNumber(Math.round((etaSeconds / 3600) * 10) / 10, locale) });
}

/**
 * How far the portal's copies of the connected systems are loaded (issue 49), for the admin: "612
 * of 1,000 systems loaded, about 9 min left" and a bar. Once every system is loaded, one line.
 */
export function MirrorLoadProgress({ progress }: { progress: LoadProgress }) {
  const t = useTranslations('mirrorLoad');
  const locale = useLocale();
  const loaded = formatNumber(progress.loaded, locale);
  const total = formatNumber(progress.total, locale);
  if (progress.total === 0) return null;
  const done = progress.remaining === 0;
  const summary = done ? t('allLoaded', { total }) : t('summary', { loaded, total, timeLeft: timeLeftText(progress.etaSeconds, t, locale) });
  return (
    <section aria-labelledby="mirror-load-heading" className={cardClass}>
      <h2 id="mirror-load-heading" className="text-lg font-semibold">
        {t('heading')}
      </h2>
      <p className={`mt-1 ${mutedTextClass}`}>{summary}</p>
      {done ? null : (
        <>
          <ProgressBar className="mt-2" label={t('barLabel')} value={progress.loaded} max={progress.total} valueText={t('barValue', { loaded, total })} />
          <p className={`mt-2 ${mutedTextClass}`}>{t('hint')}</p>
        </>
      )}
    </section>
  );
}
