import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { instantOfWallTime } from '@/lib/schedule/expand';
import { computeReport } from '@/lib/reports/compute';
import { reportExportTables, type ReportTableT } from '@/lib/reports/export-tables';
import { parsePeriod } from '@/lib/reports/period';
import { catalogues, withIntl } from '@/tests/intl';
import { PeriodPicker } from './period-picker';
import { SystemReportView } from './system-report';

const TZ = 'Europe/Stockholm';
const at = (d: number, h: number) => instantOfWallTime(2026, 2, d, h * 60, TZ);
const parsed = parsePeriod({ from: '2026-03-02', to: '2026-03-08' }, TZ, at(5, 12));
if (!parsed.ok) throw new Error('fixture period');
const period = parsed.period;
const report = computeReport({
  startMs: period.startMs,
  endMs: period.endMs,
  nowMs: at(5, 12),
  timeZone: TZ,
  basis: 'local',
  rooms: [
    { id: 'a', name: 'Tvättstuga Ö', schedule: Array.from({ length: 7 }, () => [[420, 180]]) },
    { id: 'b', name: 'Laundry B', schedule: Array.from({ length: 7 }, () => [[420, 180]]) },
  ],
  reservations: [
    { id: '1', resourceId: 'a', ownerType: 'Group', ownerId: 'g1', userId: null, status: 'Used', startMs: at(2, 7), endMs: at(2, 10) },
    { id: '2', resourceId: 'a', ownerType: 'Group', ownerId: 'g1', userId: null, status: 'Unused', startMs: at(3, 7), endMs: at(3, 10) },
  ],
  apartments: [{ groupId: 'g1', apartment: '1001', name: 'Lgh 1001' }],
  userGroup: new Map(),
  portalBookings: [{ requestedBy: 'anna@example.se', requestedByName: 'Anna Förvaltare', requestedByEmail: 'anna@example.se' }],
});

describe('the report page body', () => {
  it('draws each chart as an image named by its summary, with the facts beside it as text', () => {
    const html = renderToStaticMarkup(withIntl(<SystemReportView deviceId="d1" period={period} report={report} />));
    // Room A: 2 of 7 slots booked = 29 %, room B none.
    expect(html).toContain('role="img" aria-label="Booked share of slot time, 2 bars: highest Tvättstuga Ö 29%, lowest Laundry B 0%."');
    expect(html).toContain('Most bookings: Monday 07:00–08:00 (1), Monday 08:00–09:00 (1) and Monday 09:00–10:00 (1).');
    expect(html).toContain('<caption class="pb-1 text-left font-semibold">Rooms in figures</caption>');
    expect(html).toContain('Anna Förvaltare');
    expect(html).toContain('/api/systems/d1/exports/bookings.csv?from=2026-03-02&amp;to=2026-03-08&amp;delimiter=semicolon');
    expect(html).toContain('/api/systems/d1/exports/report.csv?from=2026-03-02&amp;to=2026-03-08&amp;delimiter=semicolon&amp;table=apartments');
  });

  it('speaks Swedish with Swedish numbers', () => {
    const html = renderToStaticMarkup(withIntl(<SystemReportView deviceId="d1" period={period} report={report} />, 'sv'));
    expect(html).toContain('högst Tvättstuga Ö 29\u00a0%');
    expect(html).toContain('Flest bokningar: måndag 07:00–08:00 (1)');
    expect(html).toContain('Oanvända bokningar');
  });

  it('offers the periods as links and a GET form that works without JavaScript', () => {
    const html = renderToStaticMarkup(withIntl(<PeriodPicker basePath="/reports" current="last-month" from="2026-03-01" to="2026-03-31" />));
    expect(html).toContain('href="/reports?period=last-12-months"');
    expect(html).toMatch(/<a [^>]*href="\/reports\?period=last-month"[^>]*aria-current="page"|aria-current="page"[^>]*href="\/reports\?period=last-month"/);
    expect(html).toMatch(/<form [^>]*action="\/reports" method="get"/);
    expect(html).toContain('name="period" value="custom"');
  });
});

describe('the report as export tables', () => {
  const tOf = (locale: 'en' | 'sv'): ReportTableT => (key) => catalogues[locale].reports[key];

  it('has the four tables with headers in the reader’s language and the numbers of the report', () => {
    const tables = reportExportTables(report, tOf('sv'), 'sv');
    expect(tables.map((t) => t.id)).toEqual(['rooms', 'hours', 'apartments', 'managers']);
    const [rooms, hours, apartments, managers] = tables.map((t) => ({ ...t, rows: [...(t.rows as Iterable<readonly unknown[]>)] }));
    expect(rooms!.headers.slice(0, 3)).toEqual(['Lokal', 'Bokad andel', 'Passtimmar']);
    expect(rooms!.rows[0]!.slice(0, 7)).toEqual(['Tvättstuga Ö', { kind: 'percent', value: 0.2857 }, 21, 6, 0, 2, 1]);
    expect(rooms!.rows.at(-1)![0]).toBe('Totalt');
    expect(hours!.headers).toEqual(['Timme', 'måndag', 'tisdag', 'onsdag', 'torsdag', 'fredag', 'lördag', 'söndag']);
    expect(hours!.rows[7]).toEqual(['07:00', 1, 1, 0, 0, 0, 0, 0]);
    expect(apartments!.rows).toEqual([['1001', 'Lgh 1001', 2, 2, 1, { kind: 'percent', value: 0.5 }]]);
    expect(managers!.rows).toEqual([['Anna Förvaltare', 'anna@example.se', 1]]);
    expect(reportExportTables(report, tOf('en'), 'en')[0]!.headers[0]).toBe('Room');
  });
});
