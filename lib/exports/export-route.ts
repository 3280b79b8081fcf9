import 'server-only';
import type { Locale } from '@/i18n/config';
import { ApiError } from '@/lib/api/errors';
import { checkSystemAccess } from '@/lib/auth/access';
import type { SessionUser } from '@/lib/auth/schemas';
import { msg } from '@/lib/i18n/message';
import { parsePeriod } from '@/lib/reports/period';
import type { ViewDeps } from '@/lib/views/freshness';
import { parseIdParam } from '@/lib/views/params';
import { bookingWords, loadBookingsExport } from './bookings';
import { CSV_DELIMITERS, csvStream, type CsvDelimiterName } from './csv';
import { attachmentDisposition, exportFileNames } from './file-name';
import { XLSX_CONTENT_TYPE, xlsxStream } from './xlsx';

// The files served. report.csv / report.xlsx (the report's tables) are to come from
// lib/reports/export-tables.ts; until they are wired here they answer 404 like any unknown name.
const FILES = { 'bookings.csv': 'csv', 'bookings.xlsx': 'xlsx' } as const;
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
  const format = FILES[file as FileName];
  const search = new URL(request.url).searchParams;
  const delimiterName = search.get('delimiter') ?? 'semicolon';
  if (!Object.hasOwn(CSV_DELIMITERS, delimiterName)) {
    throw new ApiError('bad_request', msg('exports.errors.badDelimiter', { value: delimiterName.slice(0, 32) }));
  }
  const system = await checkSystemAccess(deps.view.db, deps.user, deviceId);
  const parsed = parsePeriod({ period: search.get('period'), from: search.get('from'), to: search.get('to') }, system.timeZone, deps.nowMs ?? Date.now());
  if (!parsed.ok) throw new ApiError('bad_request', parsed.message);
  const { period } = parsed;

  const table = await loadBookingsExport(deps.view, system, period, deps.locale);
  const names = exportFileNames({ word: (await bookingWords(deps.locale)).fileWord, systemName: system.name, from: period.from, to: period.to, extension: format });
  const body =
    format === 'csv'
      ? csvStream(table, { delimiter: CSV_DELIMITERS[delimiterName as CsvDelimiterName], timeZone: system.timeZone })
      : xlsxStream([table], { timeZone: system.timeZone });
  return new Response(body, {
    headers: {
      'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_CONTENT_TYPE,
      'Content-Disposition': attachmentDisposition(names),
      'Cache-Control': 'no-store',
      'Content-Language': deps.locale,
    },
  });
}
