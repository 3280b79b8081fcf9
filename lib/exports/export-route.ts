import 'server-only';
import type { Locale } from '@/lib/i18n/config';
import { ApiError } from '@/lib/errors/api-error';
import { checkSystemAccess } from '@/lib/auth/access';
import type { SessionUser } from '@/lib/auth/schemas';
import { msg } from '@/lib/i18n/message';
import { createTranslator } from 'next-intl';
import { loadMessages } from '@/lib/i18n/messages';
import { REPORT_TABLES, reportExportTables } from '@/lib/reports/export-tables';
import { loadSystemReport } from '@/lib/reports/load';
import { parsePeriod } from '@/lib/reports/period';
import type { ViewDeps } from '@/lib/views/freshness';
import { parseIdParam } from '@/lib/views/params';
import { bookingWords, loadBookingsExport } from './bookings';
import { CSV_DELIMITERS, csvStream, type CsvDelimiterName } from './csv';
import { downloadResponse, exportFileNames } from './file-name';
import { XLSX_CONTENT_TYPE, xlsxStream } from './xlsx';
import type { ExportTable } from './types';

// The files served: the period's raw bookings, and the report's tables (lib/reports/export-tables.ts:
// one table per CSV, chosen with `table=`; every table a sheet of the workbook).
const FILES = {
  'bookings.csv': { kind: 'bookings', format: 'csv' },
  'bookings.xlsx': { kind: 'bookings', format: 'xlsx' },
  'report.csv': { kind: 'report', format: 'csv' },
  'report.xlsx': { kind: 'report', format: 'xlsx' },
} as const;
type FileName = keyof typeof FILES;

export interface ExportRequestDeps {
  view: ViewDeps;
  user: SessionUser;
  /** The reader's language: column headers, status words and the file's word. */
  locale: Locale;
  nowMs?: number;
}

/**
 * GET /api/systems/{deviceId}/exports/{file}: parse (file, delimiter) → authorize (a system not
 * assigned to the manager is 403) → the period in the system's zone → the streamed file.
 */
export async function exportResponse(request: Request, params: { deviceId: string; file: string }, deps: ExportRequestDeps): Promise<Response> {
  const deviceId = parseIdParam(params.deviceId, 'system');
  const file = params.file.slice(0, 64);
  if (!Object.hasOwn(FILES, file)) throw new ApiError('not_found', msg('exports.errors.unknownFile', { file }));
  const { kind, format } = FILES[file as FileName];
  const search = new URL(request.url).searchParams;
  const delimiterName = search.get('delimiter') ?? 'semicolon';
  if (!Object.hasOwn(CSV_DELIMITERS, delimiterName)) {
    throw new ApiError('bad_request', msg('exports.errors.badDelimiter', { value: delimiterName.slice(0, 32) }));
  }
  const system = await checkSystemAccess(deps.view.db, deps.user, deviceId);
  const parsed = parsePeriod({ period: search.get('period'), from: search.get('from'), to: search.get('to') }, system.timeZone, deps.nowMs ?? Date.now());
  if (!parsed.ok) throw new ApiError('bad_request', parsed.message);
  const { period } = parsed;

  let tables: ExportTable[];
  let word: string;
  if (kind === 'bookings') {
    tables = [await loadBookingsExport(deps.view, system, period, deps.locale)];
    word = (await bookingWords(deps.locale)).fileWord;
  } else {
    const tableId = search.get('table') ?? REPORT_TABLES[0];
    if (format === 'csv' && !(REPORT_TABLES as readonly string[]).includes(tableId)) {
      throw new ApiError('bad_request', msg('exports.errors.badTable', { value: tableId.slice(0, 32), tables: REPORT_TABLES.join(', ') }));
    }
    const messages = await loadMessages(deps.locale);
    const t = createTranslator({ locale: deps.locale, messages, namespace: 'reports' });
    const all = reportExportTables((await loadSystemReport(deps.view, system, period)).report, t, deps.locale);
    tables = format === 'csv' ? all.filter((table) => table.id === tableId) : all;
    const words = createTranslator({ locale: deps.locale, messages, namespace: 'exports.report' });
    // Each table's CSV under its own name ("bookings-by-room-…", "bookings-by-hour-…"): two
    // downloads never overwrite each other.
    word = format === 'csv' ? words(`tableWords.${tableId as (typeof REPORT_TABLES)[number]}`) : words('fileWord');
  }
  // The comma-separated file of a table is another file than the semicolon one: its own name too.
  if (format === 'csv' && delimiterName === 'comma') {
    word = `${word}-${createTranslator({ locale: deps.locale, messages: await loadMessages(deps.locale), namespace: 'exports' })('commaWord')}`;
  }
  const names = exportFileNames({ word, systemName: system.name, from: period.from, to: period.to, extension: format });
  const body =
    format === 'csv'
      ? csvStream(tables[0]!, { delimiter: CSV_DELIMITERS[delimiterName as CsvDelimiterName], timeZone: system.timeZone })
      : xlsxStream(tables, { timeZone: system.timeZone });
  return downloadResponse(body, format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_CONTENT_TYPE, names, deps.locale);
}
