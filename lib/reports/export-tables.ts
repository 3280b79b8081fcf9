import type { Locale } from '@/lib/i18n/config';
import { percentCell, type ExportTable } from '@/lib/exports/types';
import { formatWeekdayName } from '@/lib/i18n/format';
import type { ReportData, SlotShare } from './compute';

/** The catalogue's `reports` namespace (next-intl's translator, or any function answering its keys). */
export type ReportTableT = (key: ReportTableKey, values?: Record<string, string | number>) => string;
export type ReportTableKey =
  | 'room'
  | 'bookedShare'
  | 'slotHours'
  | 'bookedHours'
  | 'maintenanceHours'
  | 'bookings'
  | 'used'
  | 'unused'
  | 'unknownStatus'
  | 'upcoming'
  | 'pastBookings'
  | 'noShows'
  | 'noShowRate'
  | 'busiestSlot'
  | 'quietestSlot'
  | 'weekday'
  | 'hour'
  | 'apartment'
  | 'apartmentName'
  | 'manager'
  | 'managerAccount'
  | 'portalBookings'
  | 'sheetRooms'
  | 'sheetHours'
  | 'sheetApartments'
  | 'sheetManagers'
  | 'total';

/** The report's table ids, also the `table=` of `report.csv` (ASCII, no spaces). */
export const REPORT_TABLES = ['rooms', 'hours', 'apartments', 'managers'] as const;
export type ReportTableId = (typeof REPORT_TABLES)[number];

const hours = (minutes: number) => Math.round((minutes / 60) * 10) / 10;
/** Shares as fractions rounded to 4 places: spreadsheets format them as percentages, CSV readers compute with them. */
const share = (value: number | null) => percentCell(value === null ? null : Math.round(value * 10_000) / 10_000);
const slot = (s: SlotShare | null, locale: Locale) => (s ? `${formatWeekdayName(s.weekday, locale)} ${s.startLabel}–${s.endLabel}` : null);
const clock = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/**
 * The report's tables for the exports, headers in the reader's language: per room (and a total
 * row), bookings by weekday × local hour (one row per hour, a column per weekday), per apartment
 * (all of them, not only the page's top list), and portal bookings per manager.
 */
export function reportExportTables(report: ReportData, t: ReportTableT, locale: Locale): ExportTable[] {
  const weekdays = [0, 1, 2, 3, 4, 5, 6].map((d) => formatWeekdayName(d, locale));
  const roomRow = (name: string, f: ReportData['total'], busiest: SlotShare | null, quietest: SlotShare | null) => [
    name,
    share(f.bookedShare),
    hours(f.slotMinutes),
    hours(f.bookedMinutes),
    hours(f.maintenanceMinutes),
    f.counts.bookings,
    f.counts.used,
    f.counts.unused,
    f.counts.unknownStatus,
    f.counts.upcoming,
    f.counts.pastBookings,
    f.counts.noShows,
    share(f.counts.noShowRate),
    slot(busiest, locale),
    slot(quietest, locale),
  ];
  return [
    {
      id: 'rooms',
      title: t('sheetRooms'),
      headers: [
        t('room'),
        t('bookedShare'),
        t('slotHours'),
        t('bookedHours'),
        t('maintenanceHours'),
        t('bookings'),
        t('used'),
        t('unused'),
        t('unknownStatus'),
        t('upcoming'),
        t('pastBookings'),
        t('noShows'),
        t('noShowRate'),
        t('busiestSlot'),
        t('quietestSlot'),
      ],
      rows: [
        ...report.rooms.map((r) => roomRow(r.name, r, r.busiest, r.quietest)),
        roomRow(t('total'), report.total, report.busiest[0] ?? null, report.quietest[0] ?? null),
      ],
    },
    {
      id: 'hours',
      title: t('sheetHours'),
      headers: [t('hour'), ...weekdays],
      rows: Array.from({ length: 24 }, (_, hour) => [clock(hour), ...report.weekdayHour.map((hours) => hours[hour] ?? 0)]),
    },
    {
      id: 'apartments',
      title: t('sheetApartments'),
      headers: [t('apartment'), t('apartmentName'), t('bookings'), t('pastBookings'), t('noShows'), t('noShowRate')],
      rows: report.apartments.map((a) => [a.apartment, a.name, a.bookings, a.pastBookings, a.noShows, share(a.noShowRate)]),
    },
    {
      id: 'managers',
      title: t('sheetManagers'),
      headers: [t('manager'), t('managerAccount'), t('portalBookings')],
      rows: report.managers.map((m) => [m.name, m.email, m.bookings]),
    },
  ];
}
