import { useLocale, useTranslations } from 'next-intl';
import type { Locale } from '@/lib/i18n/config';
import { formatWeekdayName } from '@/lib/i18n/format';
import type { NowStatus } from '@/lib/schedule';
import { Badge } from './ui/badge';
import { ownerText } from '@/components/resource-week/slot-words';

const STYLES: Record<NowStatus['kind'], { className: string; icon: string }> = {
  free: {
    className: 'border-emerald-700 bg-emerald-50 text-emerald-950 dark:border-emerald-400 dark:bg-emerald-950 dark:text-emerald-50',
    icon: '○',
  },
  'in-use': {
    className: 'border-brand-700 bg-brand-600 text-white dark:border-blue-300 dark:bg-blue-800 dark:text-white',
    icon: '●',
  },
  maintenance: {
    className: 'border-amber-700 bg-amber-100 text-amber-950 dark:border-amber-400 dark:bg-amber-950 dark:text-amber-50',
    icon: '⚠',
  },
};

/** When it ends: "10:00", or "Tue 02:00" / "tis 02:00" on another day than today. */
export function untilWords(until: NonNullable<NowStatus['until']>, locale: Locale): string {
  return until.weekday === null ? until.clock : `${formatWeekdayName(until.weekday, locale, 'short')} ${until.clock}`;
}

/** What is happening on a resource now: "Free", "In use until 10:00", "Maintenance until 14:30". */
export function NowStatusBadge({ status, showOwner = false }: { status: NowStatus; showOwner?: boolean }) {
  const t = useTranslations('overview');
  const tSlot = useTranslations('slot');
  const locale = useLocale();
  const style = STYLES[status.kind];
  const until = status.until ? untilWords(status.until, locale) : '';
  const text =
    status.kind === 'free' || !status.until
      ? t('free')
      : status.kind === 'maintenance'
        ? t('maintenanceUntil', { until })
        : t('inUseUntil', { until });
  const owner = showOwner && status.ownerLabel ? ` (${ownerText(status.ownerLabel, tSlot)})` : '';
  return (
    <Badge data-kind={status.kind} size="sm" className={`border ${style.className}`}>
      <span aria-hidden="true">{style.icon}</span>
      <span>
        <span className="sr-only">{`${t('nowPrefix')} `}</span>
        {text}
        {owner}
      </span>
    </Badge>
  );
}
