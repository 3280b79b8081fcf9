import { ApiError, localeOfRequest, withErrors } from '@/lib/api/errors';
import { requireSystemAccess } from '@/lib/auth/access';
import { requireUser } from '@/lib/auth/session';
import { msg } from '@/lib/i18n/message';
import { bookingWords, loadBookingsExport } from '@/lib/exports/bookings';
import { CSV_DELIMITERS, csvStream } from '@/lib/exports/csv';
import { attachmentDisposition, exportFileNames } from '@/lib/exports/file-name';
import { XLSX_CONTENT_TYPE, xlsxStream } from '@/lib/exports/xlsx';
import { parsePeriod } from '@/lib/reports/period';
import { parseIdParam } from '@/lib/views/params';
import { portalViewDeps } from '@/lib/views/live-deps';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ deviceId: string; file: string }> };

// The files this route serves. report.csv / report.xlsx (the report's tables) are to come from
// lib/reports/export-tables.ts; until they are wired here they answer 404 like any unknown name.
const FILES = { 'bookings.csv': 'csv', 'bookings.xlsx': 'xlsx' } as const;
type FileName = keyof typeof FILES;

// GET /api/systems/{deviceId}/exports/{bookings.csv|bookings.xlsx}?period=&from=&to=&delimiter= — the period's bookings, streamed
export const GET = withErrors(async (request: Request, context: Context) => {
  const user = await requireUser();
  const params = await context.params;
  const deviceId = parseIdParam(params.deviceId, 'system');
  const file = params.file.slice(0, 64);
  if (!Object.hasOwn(FILES, file)) throw new ApiError('not_found', msg('exports.errors.unknownFile', { file }));
  const format = FILES[file as FileName];
  const search = new URL(request.url).searchParams;
  const delimiterName = search.get('delimiter') ?? 'semicolon';
  if (!Object.hasOwn(CSV_DELIMITERS, delimiterName)) {
    throw new ApiError('bad_request', msg('exports.errors.badDelimiter', { value: delimiterName.slice(0, 32) }));
  }
  const system = await requireSystemAccess(user, deviceId);
  const parsed = parsePeriod({ period: search.get('period'), from: search.get('from'), to: search.get('to') }, system.timeZone, Date.now());
  if (!parsed.ok) throw new ApiError('bad_request', parsed.message);
  const { period } = parsed;

  const locale = await localeOfRequest(request);
  const table = await loadBookingsExport(await portalViewDeps(), system, period, locale);
  const names = exportFileNames({ word: (await bookingWords(locale)).fileWord, systemName: system.name, from: period.from, to: period.to, extension: format });
  const body =
    format === 'csv'
      ? csvStream(table, { delimiter: CSV_DELIMITERS[delimiterName as keyof typeof CSV_DELIMITERS], timeZone: system.timeZone })
      : xlsxStream([table], { timeZone: system.timeZone });
  return new Response(body, {
    headers: {
      'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_CONTENT_TYPE,
      'Content-Disposition': attachmentDisposition(names),
      'Cache-Control': 'no-store',
      'Content-Language': locale,
    },
  });
});
