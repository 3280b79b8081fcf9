import { localeOfRequest, withErrors } from '@/lib/api/route';
import { requireUser } from '@/lib/api/session';
import { portfolioExportResponse } from '@/lib/exports/portfolio-export';
import { portalViewDeps } from '@/lib/wiring';

export const dynamic = 'force-dynamic';

// GET /api/reports/portfolio?file=systems.csv|rooms.csv|months.csv|portfolio.xlsx&period=&from=&to=&months=6|12&delimiter=semicolon|comma — the portfolio of the systems the user may see, as a download
export const GET = withErrors(async (request: Request) => {
  const user = await requireUser();
  const [view, locale] = await Promise.all([portalViewDeps(), localeOfRequest(request)]);
  return portfolioExportResponse(request, { view, user, locale });
});
