import { useLocale, useTranslations } from 'next-intl';
import { useId } from 'react';
import type { Locale } from '@/lib/i18n/config';
import { formatList, formatNumber, formatPercent, formatWeekdayName } from '@/lib/i18n/format';
import type { SlotShare } from '@/lib/reports/compute';
import { mutedTextClass } from '../ui/styles';

/*
 * The report's charts, drawn as plain SVG: they are bars and a heatmap, a few dozen lines each,
 * where a chart library (Recharts ~100 kB gzipped, Victory, Nivo) would add its whole bundle to a
 * page that is rendered on the server and needs no interaction. Each chart is an image with its
 * summary as the accessible name, and the same facts stand beside it as visible text or a table.
 */

export type ReportsT = ReturnType<typeof useTranslations<'reports'>>;

/** "Monday 07:00–10:00" / "måndag 07:00–10:00". */
export function slotName(slot: Pick<SlotShare, 'weekday' | 'startLabel' | 'endLabel'>, locale: Locale): string {
  return `${formatWeekdayName(slot.weekday, locale)} ${slot.startLabel}–${slot.endLabel}`;
}

export interface ShareItem {
  key: string;
  name: string;
  /** Booked share of slot time, or null when there was no slot time. */
  share: number | null;
}

/** "Booked share per room: highest Laundry A 80 %, lowest Laundry B 20 %; 2 rooms." */
export function shareBarsSummary(items: readonly ShareItem[], t: ReportsT, locale: Locale): string {
  const known = items.filter((i): i is ShareItem & { share: number } => i.share !== null);
  if (known.length === 0) return t('sharesNone');
  const sorted = [...known].sort((a, b) => b.share - a.share);
  const high = sorted[0]!;
  const low = sorted.at(-1)!;
  return t('sharesSummary', {
    count: items.length,
    highest: high.name,
    highestShare: formatPercent(high.share, locale),
    lowest: low.name,
    lowestShare: formatPercent(low.share, locale),
  });
}

const BAR_ROW = 26;
const LABEL_WIDTH = 200;
const BAR_WIDTH = 360;
const VALUE_WIDTH = 70;

/** One horizontal bar per item: its booked share of slot time. */
export function ShareBars({ items, title }: { items: readonly ShareItem[]; title: string }) {
  const t = useTranslations('reports');
  const locale = useLocale();
  const headingId = useId();
  const summary = shareBarsSummary(items, t, locale);
  const height = Math.max(1, items.length) * BAR_ROW;
  const width = LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH;
  return (
    <figure aria-labelledby={headingId} className="flex flex-col gap-2">
      <h3 id={headingId} className="text-base font-semibold">
        {title}
      </h3>
      {items.length > 0 ? (
        <svg role="img" aria-label={summary} viewBox={`0 0 ${width} ${height}`} className="h-auto w-full max-w-3xl" data-chart="share-bars">
          {items.map((item, row) => {
            const y = row * BAR_ROW;
            const share = item.share ?? 0;
            return (
              <g key={item.key}>
                <text x={LABEL_WIDTH - 8} y={y + BAR_ROW / 2 + 4} textAnchor="end" className="fill-slate-800 text-[12px] dark:fill-slate-200">
                  {item.name.length > 28 ? `${item.name.slice(0, 27)}…` : item.name}
                </text>
                <rect x={LABEL_WIDTH} y={y + 4} width={BAR_WIDTH} height={BAR_ROW - 8} rx={3} className="fill-slate-100 dark:fill-slate-800" />
                <rect x={LABEL_WIDTH} y={y + 4} width={Math.round(BAR_WIDTH * Math.min(1, share))} height={BAR_ROW - 8} rx={3} className="fill-blue-600 dark:fill-blue-400" />
                <text x={LABEL_WIDTH + BAR_WIDTH + 8} y={y + BAR_ROW / 2 + 4} className="fill-slate-800 text-[12px] tabular-nums dark:fill-slate-200">
                  {item.share === null ? '–' : formatPercent(item.share, locale)}
                </text>
              </g>
            );
          })}
        </svg>
      ) : null}
      <figcaption className={mutedTextClass}>{summary}</figcaption>
    </figure>
  );
}

/** Colour steps of the weekday × hour picture, relative to its busiest hour (as the occupancy heatmap's). */
export const HOUR_LEVELS = [
  { upTo: 0, className: 'fill-slate-100 dark:fill-slate-800' },
  { upTo: 0.25, className: 'fill-sky-100 dark:fill-sky-900' },
  { upTo: 0.5, className: 'fill-sky-300 dark:fill-sky-700' },
  { upTo: 0.75, className: 'fill-blue-500 dark:fill-blue-500' },
  { upTo: 1, className: 'fill-blue-800 dark:fill-blue-300' },
] as const;

export function hourLevel(count: number, max: number): number {
  if (count <= 0 || max <= 0) return 0;
  const ratio = count / max;
  return HOUR_LEVELS.findIndex((l) => ratio <= l.upTo);
}

const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** The busiest hours of the week in words: "Most bookings: Monday 18:00–19:00 (12), …". */
export function weekdayHourSummary(weekdayHour: readonly (readonly number[])[], t: ReportsT, locale: Locale): string {
  const cells = weekdayHour.flatMap((hours, weekday) => hours.map((count, hour) => ({ weekday, hour, count })));
  const busy = cells.filter((c) => c.count > 0).sort((a, b) => b.count - a.count || a.weekday - b.weekday || a.hour - b.hour);
  if (busy.length === 0) return t('hoursNone');
  const top = busy.slice(0, 3).map((c) =>
    t('hourCell', { when: `${formatWeekdayName(c.weekday, locale)} ${hourLabel(c.hour)}–${hourLabel((c.hour + 1) % 24)}`, count: formatNumber(c.count, locale) }),
  );
  return t('hoursSummary', { times: formatList(top, locale) });
}

const CELL = 22;
const LEFT = 90;
const TOP = 20;

/** Weekdays down, local hours across; each cell's colour says how many bookings touched that hour. */
export function WeekdayHourHeatmap({ weekdayHour, timeZone }: { weekdayHour: readonly (readonly number[])[]; timeZone: string }) {
  const t = useTranslations('reports');
  const locale = useLocale();
  const headingId = useId();
  const summary = weekdayHourSummary(weekdayHour, t, locale);
  const max = Math.max(0, ...weekdayHour.flat());
  const width = LEFT + 24 * CELL;
  const height = TOP + 7 * CELL;
  return (
    <figure aria-labelledby={headingId} className="flex flex-col gap-2">
      <h3 id={headingId} className="text-base font-semibold">
        {t('hoursTitle')}
      </h3>
      <p className={mutedTextClass}>{t('hoursExplained', { zone: timeZone })}</p>
      <div className="overflow-x-auto">
        <svg role="img" aria-label={summary} viewBox={`0 0 ${width} ${height}`} className="h-auto w-full min-w-[36rem] max-w-4xl" data-chart="weekday-hour">
          {Array.from({ length: 24 }, (_, hour) =>
            hour % 3 === 0 ? (
              <text key={`h${hour}`} x={LEFT + hour * CELL + 2} y={TOP - 6} className="fill-slate-700 text-[10px] tabular-nums dark:fill-slate-300">
                {hourLabel(hour)}
              </text>
            ) : null,
          )}
          {weekdayHour.map((hours, weekday) => (
            <g key={weekday}>
              <text x={LEFT - 6} y={TOP + weekday * CELL + CELL / 2 + 4} textAnchor="end" className="fill-slate-700 text-[11px] dark:fill-slate-300">
                {formatWeekdayName(weekday, locale, 'short')}
              </text>
              {hours.map((count, hour) => (
                <rect
                  key={hour}
                  x={LEFT + hour * CELL + 1}
                  y={TOP + weekday * CELL + 1}
                  width={CELL - 2}
                  height={CELL - 2}
                  rx={2}
                  data-count={count}
                  className={HOUR_LEVELS[hourLevel(count, max)]!.className}
                />
              ))}
            </g>
          ))}
        </svg>
      </div>
      <p className="text-xs text-slate-700 dark:text-slate-300">{t('hoursLegend', { max })}</p>
      <figcaption className={mutedTextClass}>{summary}</figcaption>
    </figure>
  );
}
