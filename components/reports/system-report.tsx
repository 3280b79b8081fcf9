import { useLocale, useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import type { Locale } from '@/lib/i18n/config';
import { formatNumber, formatPercent } from '@/lib/i18n/format';
import type { ApartmentReport, OccupancyFigures, ReportData, SlotShare } from '@/lib/reports/compute';
import { REPORT_TABLES } from '@/lib/reports/export-tables';
import type { Period } from '@/lib/reports/period';
import { mutedTextClass, termClass } from '../ui/styles';
import { ShareBars, WeekdayHourHeatmap, slotName, type ReportsT } from './report-charts';

/** How many apartments the page lists by bookings (the export has them all). */
export const APARTMENTS_SHOWN = 20;

const tableClass = 'min-w-full border-collapse text-sm';
const thClass = 'border-b border-slate-300 px-2 py-1.5 text-left font-medium dark:border-slate-600';
const tdClass = 'border-b border-slate-200 px-2 py-1.5 dark:border-slate-800';
const numClass = `${tdClass} text-right tabular-nums`;

const hours = (minutes: number, locale: Locale) => formatNumber(minutes / 60, locale, { maximumFractionDigits: 1 });
const pct = (share: number | null, locale: Locale) => (share === null ? '–' : formatPercent(share, locale));

export function apartmentName(a: Pick<ApartmentReport, 'apartment' | 'name'>, t: ReportsT): string {
  return a.apartment || a.name || t('unnamedApartment');
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-3">
      <h2 className="text-xl font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/** The headline figures: booked share, bookings and their outcomes. */
export function FiguresList({ figures, portalBookings }: { figures: OccupancyFigures; portalBookings?: number }) {
  const t = useTranslations('reports');
  const locale = useLocale();
  const c = figures.counts;
  const items: [string, string][] = [
    [t('bookedShare'), pct(figures.bookedShare, locale)],
    [t('slotHours'), hours(figures.slotMinutes, locale)],
    [t('bookings'), formatNumber(c.bookings, locale)],
    [t('used'), formatNumber(c.used, locale)],
    [t('noShows'), t('noShowsValue', { count: formatNumber(c.noShows, locale), rate: pct(c.noShowRate, locale) })],
    [t('upcoming'), formatNumber(c.upcoming, locale)],
    [t('maintenanceHours'), hours(figures.maintenanceMinutes, locale)],
  ];
  if (portalBookings !== undefined) items.push([t('portalBookings'), formatNumber(portalBookings, locale)]);
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {items.map(([term, value]) => (
        <div key={term} className="rounded-lg border border-slate-300 p-3 dark:border-slate-700">
          <dt className={`text-sm ${termClass}`}>{term}</dt>
          <dd className="text-xl font-semibold tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function SlotList({ title, slots }: { title: string; slots: readonly SlotShare[] }) {
  const t = useTranslations('reports');
  const locale = useLocale();
  return (
    <div>
      <h3 className="text-base font-semibold">{title}</h3>
      {slots.length === 0 ? (
        <p className={mutedTextClass}>{t('noSlotTime')}</p>
      ) : (
        <ol className="list-decimal pl-6 text-sm">
          {slots.map((s) => (
            <li key={`${s.weekday}|${s.startLabel}|${s.endLabel}`}>
              {t('slotShare', { slot: slotName(s, locale), share: formatPercent(s.share, locale), occurrences: s.occurrences })}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function ApartmentTable({ caption, rows }: { caption: string; rows: readonly ApartmentReport[] }) {
  const t = useTranslations('reports');
  const locale = useLocale();
  return (
    <div className="overflow-x-auto">
      <table className={tableClass}>
        <caption className="pb-1 text-left font-semibold">{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className={thClass}>{t('apartment')}</th>
            <th scope="col" className={`${thClass} text-right`}>{t('bookings')}</th>
            <th scope="col" className={`${thClass} text-right`}>{t('pastBookings')}</th>
            <th scope="col" className={`${thClass} text-right`}>{t('noShows')}</th>
            <th scope="col" className={`${thClass} text-right`}>{t('noShowRate')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((a) => (
            <tr key={a.groupId}>
              <th scope="row" className={`${tdClass} text-left font-normal`}>{apartmentName(a, t)}</th>
              <td className={numClass}>{formatNumber(a.bookings, locale)}</td>
              <td className={numClass}>{formatNumber(a.pastBookings, locale)}</td>
              <td className={numClass}>{formatNumber(a.noShows, locale)}</td>
              <td className={numClass}>{pct(a.noShowRate, locale)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Links to the exports of this report's period (CSV with either delimiter, and XLSX). */
export function ExportLinks({ deviceId, period }: { deviceId: string; period: Period }) {
  const t = useTranslations('reports');
  const range = `from=${period.from}&to=${period.to}`;
  const base = `/api/systems/${deviceId}/exports`;
  const links: [string, string][] = [
    [`${base}/bookings.csv?${range}&delimiter=semicolon`, t('exportBookingsCsv', { delimiter: 'semicolon' })],
    [`${base}/bookings.csv?${range}&delimiter=comma`, t('exportBookingsCsv', { delimiter: 'comma' })],
    [`${base}/bookings.xlsx?${range}`, t('exportBookingsXlsx')],
    [`${base}/report.xlsx?${range}`, t('exportReportXlsx')],
    ...REPORT_TABLES.map((id): [string, string] => [`${base}/report.csv?${range}&delimiter=semicolon&table=${id}`, t('exportReportCsv', { table: id })]),
  ];
  return (
    <ul className="flex flex-col gap-1 text-sm">
      {links.map(([href, label]) => (
        <li key={href}>
          <a href={href} download className="text-blue-700 underline underline-offset-2 dark:text-blue-300">
            {label}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** A system's report: headline figures, rooms, hours, slots, apartments, managers and exports. */
export function SystemReportView({ deviceId, period, report }: { deviceId: string; period: Period; report: ReportData }) {
  const t = useTranslations('reports');
  const locale = useLocale();
  return (
    <div className="flex flex-col gap-8">
      <Section title={t('summaryTitle')}>
        <FiguresList figures={report.total} portalBookings={report.portalBookings} />
        <p className={mutedTextClass}>{t('countingExplained')}</p>
      </Section>

      <Section title={t('roomsTitle')}>
        <ShareBars title={t('sharesTitle')} items={report.rooms.map((r) => ({ key: r.resourceId, name: r.name, share: r.bookedShare }))} />
        <div className="overflow-x-auto">
          <table className={tableClass}>
            <caption className="pb-1 text-left font-semibold">{t('roomsTable')}</caption>
            <thead>
              <tr>
                <th scope="col" className={thClass}>{t('room')}</th>
                <th scope="col" className={`${thClass} text-right`}>{t('bookedShare')}</th>
                <th scope="col" className={`${thClass} text-right`}>{t('slotHours')}</th>
                <th scope="col" className={`${thClass} text-right`}>{t('bookings')}</th>
                <th scope="col" className={`${thClass} text-right`}>{t('used')}</th>
                <th scope="col" className={`${thClass} text-right`}>{t('noShows')}</th>
                <th scope="col" className={`${thClass} text-right`}>{t('upcoming')}</th>
                <th scope="col" className={thClass}>{t('busiestSlot')}</th>
                <th scope="col" className={thClass}>{t('quietestSlot')}</th>
              </tr>
            </thead>
            <tbody>
              {report.rooms.map((r) => (
                <tr key={r.resourceId}>
                  <th scope="row" className={`${tdClass} text-left font-normal`}>{r.name}</th>
                  <td className={numClass}>{pct(r.bookedShare, locale)}</td>
                  <td className={numClass}>{hours(r.slotMinutes, locale)}</td>
                  <td className={numClass}>{formatNumber(r.counts.bookings, locale)}</td>
                  <td className={numClass}>{formatNumber(r.counts.used, locale)}</td>
                  <td className={numClass}>{formatNumber(r.counts.noShows, locale)}</td>
                  <td className={numClass}>{formatNumber(r.counts.upcoming, locale)}</td>
                  <td className={tdClass}>{r.busiest ? `${slotName(r.busiest, locale)} (${formatPercent(r.busiest.share, locale)})` : '–'}</td>
                  <td className={tdClass}>{r.quietest ? `${slotName(r.quietest, locale)} (${formatPercent(r.quietest.share, locale)})` : '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      <Section title={t('whenTitle')}>
        <WeekdayHourHeatmap weekdayHour={report.weekdayHour} timeZone={report.timeZone} />
        <div className="grid gap-4 sm:grid-cols-2">
          <SlotList title={t('busiestTitle')} slots={report.busiest} />
          <SlotList title={t('quietestTitle')} slots={report.quietest} />
        </div>
      </Section>

      <Section title={t('apartmentsTitle')}>
        {report.topNoShows.length === 0 ? (
          <p className={mutedTextClass}>{t('noNoShows')}</p>
        ) : (
          <ApartmentTable caption={t('topNoShowsTable')} rows={report.topNoShows} />
        )}
        {report.apartments.length === 0 ? (
          <p className={mutedTextClass}>{t('noApartments')}</p>
        ) : (
          <ApartmentTable
            caption={t('apartmentsTable', { shown: Math.min(APARTMENTS_SHOWN, report.apartments.length), total: report.apartments.length })}
            rows={report.apartments.slice(0, APARTMENTS_SHOWN)}
          />
        )}
        {report.unplacedBookings > 0 ? <p className={mutedTextClass}>{t('unplaced', { count: report.unplacedBookings })}</p> : null}
      </Section>

      <Section title={t('managersTitle')}>
        {report.managers.length === 0 ? (
          <p className={mutedTextClass}>{t('noManagers')}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className={tableClass}>
              <caption className="pb-1 text-left font-semibold">{t('managersTable')}</caption>
              <thead>
                <tr>
                  <th scope="col" className={thClass}>{t('manager')}</th>
                  <th scope="col" className={`${thClass} text-right`}>{t('portalBookings')}</th>
                </tr>
              </thead>
              <tbody>
                {report.managers.map((m) => (
                  <tr key={m.requestedBy}>
                    <th scope="row" className={`${tdClass} text-left font-normal`}>{m.name}</th>
                    <td className={numClass}>{formatNumber(m.bookings, locale)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>

      <Section title={t('exportsTitle')}>
        <ExportLinks deviceId={deviceId} period={period} />
      </Section>
    </div>
  );
}
