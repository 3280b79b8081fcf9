import { localeOfRequest, withErrors } from '@/lib/api/route';
import { requireUser } from '@/lib/api/session';
import { exportResponse } from '@/lib/exports/export-route';
import { portalViewDeps } from '@/lib/wiring';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ deviceId: string; file: string }> };

// GET /api/systems/{deviceId}/exports/{bookings.csv|bookings.xlsx}?period=&from=&to=&delimiter=semicolon|comma — the period's bookings, streamed (report.csv/.xlsx: 404 until wired, see lib/exports/export-route.ts)
export const GET = withErrors(async (request: Request, context: Context) => {
  const user = await requireUser();
  const [params, view, locale] = await Promise.all([context.params, portalViewDeps(), localeOfRequest(request)]);
  return exportResponse(request, params, { view, user, locale });
});
