import Link from 'next/link';
import { useLocale, useTranslations } from 'next-intl';
import type { CSSProperties } from 'react';
import { slotTimeRange, weekLabel } from '@/components/resource-week/slot-words';
import { formatDayMonth, formatWeekdayName, apartmentNumber } from '@/lib/i18n/format';
import type { StatefulSlot, WeekInfo } from '@/lib/schedule';
import { wallClock } from '@/lib/schedule/zoned';
import { PrintButton, PrintedAt } from './print-controls';
import { type SheetEntry, weekSheetRows } from './week-sheet-table';

export type SheetT = ReturnType<typeof useTranslations<'sheet'>>;

/** A cell's words on the door: "Apt 1203" / "Lgh 1203", "Booked" for a holder without an apartment, "Maintenance". */
export function sheetEntryText(entry: SheetEntry, t: SheetT, closedText: (reason: string) => string = (reason) => reason): string {
  switch (entry.kind) {
    case 'closed':
      return closedText(entry.reason);
    case 'free':
      return '';
    case 'booked':
      // A resident's name is not put up on a door: the apartment number or only "Booked".
      return entry.owner?.kind === 'apartment' ? t('apartment', { apartment: apartmentNumber(entry.owner.apartment) }) : t('booked');
    case 'maintenance':
      return entry.partial ? t('maintenancePartial', entry.partial) : t('maintenance');
  }
}

export interface WeekSheetProps {
  systemName: string;
  resourceName: string;
  timeZone: string;
  week: WeekInfo;
  slots: readonly StatefulSlot[];
  /** When the data was read (epoch ms): the footer's print time until the browser prints. */
  generatedAt: number;
  /** The room's page, for the way back. */
  roomHref: string;
}

const CELL = 'border border-slate-400 px-1.5 py-1 align-top dark:border-slate-500 print:border-black';

/**
 * The printable week sheet of one room: the room, the week, a table of slot times × days with the
 * apartment of each booking, and a footer. On screen it has a Print button and a way back; printed
 * (app/globals.css, `[data-week-sheet]`) it is exactly one A4 landscape page.
 */
export function WeekSheet({ systemName, resourceName, timeZone, week, slots, generatedAt, roomHref }: WeekSheetProps) {
  const t = useTranslations('sheet');
  const tClosed = useTranslations('closedSlot');
  const slotT = useTranslations('slot');
  const gridT = useTranslations('grid');
  const locale = useLocale();
  const label = weekLabel(week, gridT, locale);
  const rows = weekSheetRows(week, slots);
  return (
    <div data-week-sheet="" className="flex flex-col gap-3" style={{ '--sheet-rows': Math.max(rows.length, 1) } as CSSProperties}>
      <div className="flex flex-wrap items-center gap-3 print:hidden">
        <Link
          href={roomHref}
          className="inline-flex min-h-11 items-center rounded-md border border-slate-300 px-3 text-sm font-medium hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:border-slate-600 dark:hover:bg-slate-800"
        >
          <span aria-hidden="true">←&nbsp;</span>
          {t('back', { resource: resourceName })}
        </Link>
        <PrintButton />
      </div>
      <header className="flex flex-wrap items-end justify-between gap-x-6 gap-y-1" data-sheet-part="header">
        <div>
          <p className="text-sm text-slate-700 dark:text-slate-300">{systemName}</p>
          <h1 className="text-2xl font-semibold tracking-tight">{resourceName}</h1>
        </div>
        <p className="text-lg font-semibold">{label}</p>
      </header>
      {rows.length === 0 ? (
        <p className="text-sm">{t('noSlotsWeek')}</p>
      ) : (
        <table className="w-full table-fixed border-collapse text-sm" data-sheet-part="table">
          <caption className="sr-only">{t('caption', { resource: resourceName, week: label })}</caption>
          <colgroup>
            <col className="w-[13%]" />
            {week.days.map((day) => (
              <col key={day.date} />
            ))}
          </colgroup>
          <thead>
            <tr>
              <th scope="col" className={`${CELL} text-left`}>
                {t('timeColumn')}
              </th>
              {week.days.map((day) => (
                <th key={day.date} scope="col" className={`${CELL} text-left`}>
                  <span className="block font-semibold">{formatWeekdayName(day.index, locale)}</span>{' '}
                  <span className="block font-normal">{formatDayMonth(wallClock(day.startMs, timeZone), locale, false)}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} data-sheet-row="">
                <th scope="row" className={`${CELL} whitespace-nowrap text-left font-semibold tabular-nums`}>
                  {slotTimeRange({ startLabel: row.startLabel, endLabel: row.endLabel, endsNextDay: row.endsNextDay }, slotT)}
                </th>
                {row.cells.map((entries, day) =>
                  entries.length === 0 ? (
                    <td key={day} data-sheet-cell="none" className={`${CELL} bg-slate-200 dark:bg-slate-700`}>
                      <span className="sr-only">{t('noSlot')}</span>
                    </td>
                  ) : (
                    <td key={day} data-sheet-cell={entries.map((e) => e.kind).join(' ')} className={CELL}>
                      {entries.map((entry, i) =>
                        entry.kind === 'free' ? (
                          <span key={i} className="sr-only">
                            {t('free')}
                          </span>
                        ) : (
                          <span key={i} className={`block ${entry.kind === 'maintenance' || entry.kind === 'closed' ? 'italic' : 'font-medium'}`}>
                            {sheetEntryText(entry, t, (reason) => tClosed('label', { reason }))}
                          </span>
                        ),
                      )}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <footer className="flex flex-wrap justify-between gap-x-6 gap-y-1 text-xs text-slate-700 dark:text-slate-300" data-sheet-part="footer">
        <p>{t('howToBook')}</p>
        <p>
          {rows.some((row) => row.cells.some((c) => c.length === 0)) ? `${t('legendShaded')} ` : ''}
          {t('zone', { zone: timeZone })} <PrintedAt initial={generatedAt} timeZone={timeZone} />
        </p>
      </footer>
    </div>
  );
}
