import { withSystemAccess } from '@/lib/api/system-route';
import { loadSystemReport, periodInputOf, systemPeriod } from '@/lib/reports/load';
import { portalViewDeps } from '@/lib/wiring';

export const dynamic = 'force-dynamic';

// GET /api/systems/{deviceId}/reports?period=&from=&to= — the system's report for a period: occupancy, no-shows, weekday × hour, apartments, managers
export const GET = withSystemAccess(async (request, { system }) => {
  const deps = await portalViewDeps();
  const period = systemPeriod(system, periodInputOf(new URL(request.url).searchParams), (deps.now?.() ?? new Date()).getTime());
  return Response.json(await loadSystemReport(deps, system, period));
});
