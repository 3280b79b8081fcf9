import { withErrors } from '@/lib/api/route';
import { listAccessibleSystems } from '@/lib/auth/access';
import { requireUser } from '@/lib/api/session';
import { loadReportsOverview, periodInputOf } from '@/lib/reports/load';
import { portalViewDeps } from '@/lib/wiring';

export const dynamic = 'force-dynamic';

// GET /api/reports?period=&from=&to= — the report's totals for each system the user may see, and their sum
export const GET = withErrors(async (request: Request) => {
  const user = await requireUser();
  const input = periodInputOf(new URL(request.url).searchParams);
  const systems = await listAccessibleSystems(user);
  return Response.json(await loadReportsOverview(await portalViewDeps(), systems, input));
});
