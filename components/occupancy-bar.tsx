import { useLocale, useTranslations } from 'next-intl';
import { formatPercent } from '@/lib/i18n/format';
import type { OccupancyStats } from '@/lib/schedule';

export interface OccupancyBarProps {
  /** What is measured, e.g. "Laundry room 1"; part of the meter's accessible name. */
  label: string;
  stats: OccupancyStats;
  /** 'week': share of the whole week's slots; 'upcoming': of the slots not yet ended. */
  scope?: 'week' | 'upcoming';
  /** Show the label above the bar (default true); hide it when a heading already names the resource. */
  showLabel?: boolean;
}

/** The booked share of a resource's week as a meter with the number beside it. */
export function OccupancyBar({ label, stats, scope = 'week', showLabel = true }: OccupancyBarProps) {
  const share = scope === 'week' ? stats.share : stats.upcomingShare;
  const reserved = scope === 'week' ? stats.reserved : stats.upcomingReserved;
  const capacity = scope === 'week' ? stats.capacity : stats.upcomingCapacity;
  const t = useTranslations('occupancy');
  const locale = useLocale();
  const pct = share === null ? 0 : Math.round(share * 100);
  const percent = formatPercent(pct / 100, locale);
  const detail =
    share === null
      ? t('noBookableSlots')
      : `${t('detail', { reserved, capacity })}${stats.maintenance > 0 ? `, ${t('underMaintenance', { count: stats.maintenance })}` : ''}`;
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-baseline justify-between gap-2 text-sm">
        {showLabel ? <span className="font-medium">{label}</span> : <span />}
        <span className="font-semibold tabular-nums">{share === null ? '–' : percent}</span>
      </div>
      <div
        role="meter"
        aria-label={t('meter', { label, scope })}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={share === null ? t('noBookableSlots') : t('valueText', { percent, detail })}
        className="h-2.5 w-full overflow-hidden rounded-full bg-slate-200 ring-1 ring-slate-400/50 ring-inset dark:bg-slate-800"
      >
        <div className="h-full rounded-full bg-brand-600 dark:bg-blue-400" style={{ width: `${pct}%` }} />
      </div>
      <p className="text-xs text-slate-700 dark:text-slate-300">{detail}</p>
    </div>
  );
}
