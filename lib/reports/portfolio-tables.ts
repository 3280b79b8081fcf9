import { percentCell, type ExportTable } from '@/lib/exports/types';
import type { PortfolioOverview } from './portfolio-load';
import type { PortfolioFigures } from './portfolio';

/** The portfolio's table ids, also the `table=` of its CSV download (ASCII, no spaces). */
export const PORTFOLIO_TABLES = ['systems', 'rooms', 'months'] as const;
export type PortfolioTableId = (typeof PORTFOLIO_TABLES)[number];

/** A catalogue lookup (next-intl's translator of a namespace, or any function answering its keys). */
type T = (key: string, values?: Record<string, string | number>) => string;

const hours = (minutes: number) => Math.round((minutes / 60) * 10) / 10;
/** Shares as fractions rounded to 4 places, as the report's tables (spreadsheets show percentages). */
const share = (value: number | null) => percentCell(value === null ? null : Math.round(value * 10_000) / 10_000);

/**
 * The portfolio as tables, headers in the reader's language: one row per system (the not loaded
 * ones say so), per room (every room, idle ones marked), and per system and month of the trend.
 * `tp` answers the `portfolio` keys, `tr` the `reports` ones both pages share.
 */
export function portfolioExportTables(overview: PortfolioOverview, tp: T, tr: T): ExportTable[] {
  const figures = (f: PortfolioFigures) => [
    share(f.bookedShare),
    hours(f.slotMinutes),
    hours(f.bookedMinutes),
    share(f.evening.share),
    hours(f.evening.slotMinutes),
    share(f.weekend.share),
    hours(f.weekend.slotMinutes),
    f.counts.bookings,
    f.counts.used,
    f.counts.pastBookings,
    f.counts.noShows,
    share(f.counts.noShowRate),
  ];
  const figureHeaders = [
    tr('bookedShare'),
    tr('slotHours'),
    tr('bookedHours'),
    tp('eveningShare'),
    tp('eveningHours'),
    tp('weekendShare'),
    tp('weekendHours'),
    tr('bookings'),
    tr('used'),
    tr('pastBookings'),
    tr('noShows'),
    tr('noShowRate'),
  ];
  const link = (deviceId: string) => `/systems/${deviceId}/reports`;
  return [
    {
      id: 'systems',
      title: tp('sheetSystems'),
      headers: [tp('system'), tp('area'), tp('city'), tp('status'), ...figureHeaders, tp('rooms'), tp('idleRooms'), tp('link')],
      rows: [
        ...overview.systems.map((s) =>
          s.status === 'loaded'
            ? [s.system.name, s.system.area, s.system.city, tp('loaded'), ...figures(s.figures.total), s.figures.rooms.length, s.figures.idleRooms, link(s.system.deviceId)]
            : [s.system.name, s.system.area, s.system.city, tp('notLoaded'), ...figureHeaders.map(() => null), null, null, link(s.system.deviceId)],
        ),
        [tr('total'), null, null, null, ...figures(overview.summary.total), overview.summary.rooms, overview.summary.idleRooms, null],
      ],
    },
    {
      id: 'rooms',
      title: tp('sheetRooms'),
      headers: [tp('system'), tp('room'), ...figureHeaders, tp('idle')],
      rows: overview.systems.flatMap((s) => (s.status === 'loaded' ? s.figures.rooms.map((r) => [s.system.name, r.name, ...figures(r), r.idle ? tp('yes') : tp('no')]) : [])),
    },
    {
      id: 'months',
      title: tp('sheetMonths'),
      headers: [tp('system'), tp('month'), tr('bookedShare'), tr('slotHours'), tr('bookedHours'), tr('bookings'), tr('pastBookings'), tr('noShows'), tr('noShowRate')],
      rows: [
        ...overview.systems.flatMap((s) =>
          s.status === 'loaded'
            ? s.months.map((m, i) => [s.system.name, overview.monthKeys[i] ?? null, share(m.bookedShare), hours(m.slotMinutes), hours(m.bookedMinutes), m.bookings, m.pastBookings, m.noShows, share(m.noShowRate)])
            : [],
        ),
        ...overview.summary.trend.map((m) => [tr('total'), m.key, share(m.bookedShare), hours(m.slotMinutes), hours(m.bookedMinutes), m.bookings, m.pastBookings, m.noShows, share(m.noShowRate)]),
      ],
    },
  ];
}
