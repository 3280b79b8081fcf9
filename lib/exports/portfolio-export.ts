import 'server-only';
import { createTranslator } from 'next-intl';
import type { Locale } from '@/lib/i18n/config';
import { ApiError } from '@/lib/errors/api-error';
import { listAccessibleSystemsIn } from '@/lib/auth/access';
import type { SessionUser } from '@/lib/auth/schemas';
import { msg } from '@/lib/i18n/message';
import { loadMessages } from '@/lib/i18n/messages';
import { loadPortfolio, periodInputOfPortfolio } from '@/lib/reports/portfolio-load';
import { PORTFOLIO_TABLES, portfolioExportTables, type PortfolioTableId } from '@/lib/reports/portfolio-tables';
import type { ViewDeps } from '@/lib/views/freshness';
import { CSV_DELIMITERS, csvStream, type CsvDelimiterName } from './csv';
import { downloadResponse, exportFileNames } from './file-name';
import { XLSX_CONTENT_TYPE, xlsxStream } from './xlsx';

// The files served: each table as CSV, all of them as one workbook.
const FILES = [...PORTFOLIO_TABLES.map((t) => `${t}.csv`), 'portfolio.xlsx'] as const;

export interface PortfolioExportDeps {
  view: ViewDeps;
  user: SessionUser;
  locale: Locale;
}

/**
 * GET /api/reports/portfolio?file=systems.csv|rooms.csv|months.csv|portfolio.xlsx: parse (file,
 * delimiter, period, months) → the systems the user may see (a manager's own, an admin's all) → the file.
 */
export async function portfolioExportResponse(request: Request, deps: PortfolioExportDeps): Promise<Response> {
  const search = new URL(request.url).searchParams;
  const file = (search.get('file') ?? 'systems.csv').slice(0, 64);
  if (!(FILES as readonly string[]).includes(file)) throw new ApiError('bad_request', msg('exports.errors.badPortfolioFile', { value: file, files: FILES.join(', ') }));
  const delimiterName = search.get('delimiter') ?? 'semicolon';
  if (!Object.hasOwn(CSV_DELIMITERS, delimiterName)) {
    throw new ApiError('bad_request', msg('exports.errors.badDelimiter', { value: delimiterName.slice(0, 32) }));
  }
  const systems = await listAccessibleSystemsIn(deps.view.db, deps.user);
  const overview = await loadPortfolio(deps.view, systems, periodInputOfPortfolio(search));
  const messages = await loadMessages(deps.locale);
  const tp = createTranslator({ locale: deps.locale, messages, namespace: 'portfolio' });
  const tr = createTranslator({ locale: deps.locale, messages, namespace: 'reports' });
  const words = createTranslator({ locale: deps.locale, messages, namespace: 'exports' });
  // The tables ask for their keys by name; next-intl's translators type theirs as the catalogue's union.
  const tables = portfolioExportTables(overview, (key, values) => tp(key as Parameters<typeof tp>[0], values), (key, values) => tr(key as Parameters<typeof tr>[0], values));
  const format = file.endsWith('.xlsx') ? 'xlsx' : 'csv';
  const tableId = file.replace(/\.(csv|xlsx)$/, '') as PortfolioTableId | 'portfolio';
  let word = words(`portfolio.fileWords.${tableId === 'portfolio' ? 'all' : tableId}`);
  // The comma-separated file is another file than the semicolon one: its own name too.
  if (format === 'csv' && delimiterName === 'comma') word = `${word}-${words('commaWord')}`;
  const names = exportFileNames({ word, systemName: '', from: overview.period.from, to: overview.period.to, extension: format });
  const body =
    format === 'csv'
      ? csvStream(tables.find((t) => t.id === tableId)!, { delimiter: CSV_DELIMITERS[delimiterName as CsvDelimiterName], timeZone: overview.timeZone })
      : xlsxStream(tables, { timeZone: overview.timeZone });
  return downloadResponse(body, format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_CONTENT_TYPE, names, deps.locale);
}
