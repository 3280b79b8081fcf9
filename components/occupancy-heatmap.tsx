import { Fragment, useId } from 'react';
import type { Heatmap, HeatmapCell } from '@/lib/schedule';
import { mutedTextClass } from './ui/styles';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** Colour steps from quiet to busy; the legend shows the same steps with their ranges. */
export const HEATMAP_LEVELS = [
  { label: '0%', max: 0, className: 'bg-slate-100 dark:bg-slate-800' },
  { label: '1–25%', max: 0.25, className: 'bg-sky-100 dark:bg-sky-900' },
  { label: '26–50%', max: 0.5, className: 'bg-sky-300 dark:bg-sky-700' },
  { label: '51–75%', max: 0.75, className: 'bg-blue-500 dark:bg-blue-500' },
  { label: '76–100%', max: 1, className: 'bg-blue-800 dark:bg-blue-300' },
] as const;
const NO_DATA_CLASS =
  'bg-white bg-[repeating-linear-gradient(45deg,#cbd5e1_0_1px,transparent_1px_5px)] dark:bg-slate-950 dark:bg-[repeating-linear-gradient(45deg,#334155_0_1px,transparent_1px_5px)]';

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

export function formatPercent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

function follows(previous: number, minute: number, bucketMinutes: number): boolean {
  return (previous + bucketMinutes) % 1440 === minute;
}

function clock(minute: number): string {
  return `${String(Math.floor(minute / 60) % 24).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/** "Tuesday 18:00–19:00". */
export function heatmapCellName(cell: HeatmapCell, bucketMinutes: number): string {
  return `${WEEKDAYS[cell.weekday]} ${clock(cell.minute)}–${clock(cell.minute + bucketMinutes)}`;
}

/** One-paragraph summary of the picture, for its text alternative. */
export function heatmapSummary(heatmap: Heatmap): string {
  const period = `the last ${heatmap.weeks} week${heatmap.weeks === 1 ? '' : 's'}`;
  if (heatmap.overallRate === null) return `No bookable slots in ${period}.`;
  if (heatmap.busiest.length === 0) return `No bookings in ${period}.`;
  const busiest = heatmap.busiest.map((c) => `${heatmapCellName(c, heatmap.bucketMinutes)} (${formatPercent(c.rate ?? 0)} booked)`);
  return `Busiest times in ${period}: ${busiest.join(', ')}. Overall ${formatPercent(heatmap.overallRate)} of slot time was booked.`;
}

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
  const Heading = `h${headingLevel}` as 'h2';
  const heading = title ?? `Booking rate, last ${heatmap.weeks} weeks`;
  const summary = heatmapSummary(heatmap);
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
                {heading}, by weekday and time of day ({heatmap.timeZone}). {summary}
              </caption>
              <thead>
                <tr>
                  <td />
                  {WEEKDAYS.map((day) => (
                    <th key={day} scope="col" className="w-9 px-0.5 pb-1 text-center font-medium text-slate-700 sm:w-12 dark:text-slate-300">
                      <span aria-hidden="true">{day.slice(0, 3)}</span>
                      <span className="sr-only">{day}</span>
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
                        cell.rate === null
                          ? 'no slots'
                          : `${formatPercent(cell.rate)} booked, ${cell.samples} slot${cell.samples === 1 ? '' : 's'}`;
                      return (
                        <td
                          key={cell.weekday}
                          title={`${heatmapCellName(cell, heatmap.bucketMinutes)}: ${text}`}
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
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-700 dark:text-slate-300">
      <span className="font-medium">Booked:</span>
      <ul className="flex flex-wrap items-center gap-x-3 gap-y-1" aria-label="Legend">
        {HEATMAP_LEVELS.map((level) => (
          <li key={level.label} className="flex items-center gap-1">
            <span aria-hidden="true" className={`inline-block size-3.5 rounded-sm ring-1 ring-slate-400/60 ${level.className}`} />
            {level.label}
          </li>
        ))}
        <li className="flex items-center gap-1">
          <span aria-hidden="true" className={`inline-block size-3.5 rounded-sm ring-1 ring-slate-400/60 ${NO_DATA_CLASS}`} />
          no slots
        </li>
      </ul>
    </div>
  );
}
