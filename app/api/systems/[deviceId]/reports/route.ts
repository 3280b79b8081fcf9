import { requireSystemAccess } from '@/lib/auth/access';
import { requireUser } from '@/lib/api/session';
import { withErrors } from '@/lib/api/route';
import { loadSystemReport, periodInputOf, systemPeriod } from '@/lib/reports/load';
import { parseIdParam } from '@/lib/views/params';
import { portalViewDeps } from '@/lib/wiring';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ deviceId: string }> };

// GET /api/systems/{deviceId}/reports?period=&from=&to= — the system's report for a period: occupancy, no-shows, weekday × hour, apartments, managers
export const GET = withErrors(async (request: Request, context: Context) => {
  const user = await requireUser();
  const deviceId = parseIdParam((await context.params).deviceId, 'system');
  const system = await requireSystemAccess(user, deviceId);
  const deps = await portalViewDeps();
  const period = systemPeriod(system, periodInputOf(new URL(request.url).searchParams), (deps.now?.() ?? new Date()).getTime());
  return Response.json(await loadSystemReport(deps, system, period));
});
