import { useLocale, useTranslations } from 'next-intl';
import { Fragment, useId } from 'react';
import type { Locale } from '@/lib/i18n/config';
import { formatNumber, formatPercent, formatWeekdayName } from '@/lib/i18n/format';
import type { Heatmap, HeatmapCell } from '@/lib/schedule';
import { mutedTextClass } from './ui/styles';

export type OccupancyT = ReturnType<typeof useTranslations<'occupancy'>>;

/** Colour steps from quiet to busy (percent ranges); the legend shows the same steps with their ranges. */
export const HEATMAP_LEVELS = [
  { from: 0, to: 0, className: 'bg-slate-100 dark:bg-slate-800' },
  { from: 1, to: 25, className: 'bg-sky-100 dark:bg-sky-900' },
  { from: 26, to: 50, className: 'bg-sky-300 dark:bg-sky-700' },
  { from: 51, to: 75, className: 'bg-blue-500 dark:bg-blue-500' },
  { from: 76, to: 100, className: 'bg-blue-800 dark:bg-blue-300' },
] as const;
const NO_DATA_CLASS =
  'bg-white bg-[repeating-linear-gradient(45deg,#cbd5e1_0_1px,transparent_1px_5px)] dark:bg-slate-950 dark:bg-[repeating-linear-gradient(45deg,#334155_0_1px,transparent_1px_5px)]';

/** A level's range in words: "0%", "1–25%" / "0 %", "1–25 %". */
export function heatmapLevelLabel(level: (typeof HEATMAP_LEVELS)[number], locale: Locale): string {
  if (level.from === level.to) return formatPercent(level.to / 100, locale);
  return `${formatNumber(level.from, locale)}–${formatPercent(level.to / 100, locale)}`;
}

/** Index into HEATMAP_LEVELS for a rate, or -1 when there were no slots. */
export function heatmapLevel(rate: number | null): number {
  if (rate === null) return -1;
  const pct = Math.round(rate * 100);
  if (pct <= 0) return 0;
  if (pct <= 25) return 1;
  if (pct <= 50) return 2;
  if (pct <= 75) return 3;
  return 4;
}

function follows(previous: number, minute: number, bucketMinutes: number): boolean {
  return (previous + bucketMinutes) % 1440 === minute;
}

function clock(minute: number): string {
  return `${String(Math.floor(minute / 60) % 24).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/** "Tuesday 18:00–19:00" / "tisdag 18:00–19:00". */
export function heatmapCellName(cell: HeatmapCell, bucketMinutes: number, locale: Locale): string {
  return `${formatWeekdayName(cell.weekday, locale)} ${clock(cell.minute)}–${clock(cell.minute + bucketMinutes)}`;
}

/** One-paragraph summary of the picture, for its text alternative. */
export function heatmapSummary(heatmap: Heatmap, t: OccupancyT, locale: Locale): string {
  const weeks = heatmap.weeks;
  if (heatmap.overallRate === null) return t('noCapacity', { weeks });
  if (heatmap.busiest.length === 0) return t('noBookings', { weeks });
  const busiest = heatmap.busiest.map((c) =>
    t('busyCell', { cell: heatmapCellName(c, heatmap.bucketMinutes, locale), percent: formatPercent(c.rate ?? 0, locale) }),
  );
  return t('busiest', { weeks, times: busiest.join(', '), overall: formatPercent(heatmap.overallRate, locale) });
}

const WEEKDAY_INDEXES = [0, 1, 2, 3, 4, 5, 6] as const;

export interface OccupancyHeatmapProps {
  heatmap: Heatmap;
  /** Visible title; defaults to "Booking rate, last N weeks". */
  title?: string;
  /** Heading level of the title (default 2). */
  headingLevel?: 2 | 3;
}

/**
 * A weekday × time-of-day picture of the booking rate. It is a real table, so screen readers
 * can walk it cell by cell (each cell carries its rate as hidden text), with a caption that
 * summarises the busiest times, and a legend for sighted readers.
 */
export function OccupancyHeatmap({ heatmap, title, headingLevel = 2 }: OccupancyHeatmapProps) {
  const t = useTranslations('occupancy');
  const locale = useLocale();
  const Heading = `h${headingLevel}` as 'h2';
  const heading = title ?? t('heatmapTitle', { weeks: heatmap.weeks });
  const summary = heatmapSummary(heatmap, t, locale);
  const headingId = useId();
  return (
    <figure aria-labelledby={headingId} className="flex flex-col gap-3">
      <Heading id={headingId} className="text-lg font-semibold">
        {heading}
      </Heading>
      {heatmap.minutes.length === 0 ? (
        <p className={mutedTextClass}>{summary}</p>
      ) : (
        <>
          <div className="overflow-x-auto">
            <table className="border-separate border-spacing-0.5 text-xs">
              <caption className="sr-only">
                {t('caption', { title: heading, zone: heatmap.timeZone, summary })}
              </caption>
              <thead>
                <tr>
                  <td />
                  {WEEKDAY_INDEXES.map((day) => (
                    <th key={day} scope="col" className="w-9 px-0.5 pb-1 text-center font-medium text-slate-700 sm:w-12 dark:text-slate-300">
                      <span aria-hidden="true">{formatWeekdayName(day, locale, 'short')}</span>
                      <span className="sr-only">{formatWeekdayName(day, locale)}</span>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {heatmap.minutes.map((minute, row) => (
                  <Fragment key={minute}>
                  {row > 0 && !follows(heatmap.minutes[row - 1]!, minute, heatmap.bucketMinutes) ? (
                    // A gap in the schedule (hours without slots): a visible break, not a row.
                    <tr aria-hidden="true">
                      <td colSpan={8} className="h-2" />
                    </tr>
                  ) : null}
                  <tr>
                    <th scope="row" className="pr-2 text-right font-normal tabular-nums text-slate-700 dark:text-slate-300">
                      {clock(minute)}
                    </th>
                    {heatmap.cells.slice(row * 7, row * 7 + 7).map((cell) => {
                      const level = heatmapLevel(cell.rate);
                      const text =
                        cell.rate === null ? t('noSlots') : t('cellRate', { percent: formatPercent(cell.rate, locale), samples: cell.samples });
                      return (
                        <td
                          key={cell.weekday}
                          title={`${heatmapCellName(cell, heatmap.bucketMinutes, locale)}: ${text}`}
                          data-level={level}
                          className={`h-6 rounded-sm sm:h-7 ${level < 0 ? NO_DATA_CLASS : HEATMAP_LEVELS[level]!.className}`}
                        >
                          <span className="sr-only">{text}</span>
                        </td>
                      );
                    })}
                  </tr>
                  </Fragment>
                ))}
              </tbody>
            </table>
          </div>
          <HeatmapLegend />
          <figcaption className={mutedTextClass}>{summary}</figcaption>
        </>
      )}
    </figure>
  );
}

function HeatmapLegend() {
  const t = useTranslations('occupancy');
  const locale = useLocale();
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-700 dark:text-slate-300">
      <span className="font-medium">{t('legendBooked')}</span>
      <ul className="flex flex-wrap items-center gap-x-3 gap-y-1" aria-label={t('legend')}>
        {HEATMAP_LEVELS.map((level) => (
          <li key={level.from} className="flex items-center gap-1">
            <span aria-hidden="true" className={`inline-block size-3.5 rounded-sm ring-1 ring-slate-400/60 ${level.className}`} />
            {heatmapLevelLabel(level, locale)}
          </li>
        ))}
        <li className="flex items-center gap-1">
          <span aria-hidden="true" className={`inline-block size-3.5 rounded-sm ring-1 ring-slate-400/60 ${NO_DATA_CLASS}`} />
          {t('noSlots')}
        </li>
      </ul>
    </div>
  );
}
