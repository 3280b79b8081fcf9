import { requireSystemAccess } from '@/lib/auth/access';
import { requireUser } from '@/lib/api/session';
import { withErrors } from '@/lib/api/route';
import { parseIdParam } from '@/lib/views/params';
import { portalViewDeps } from '@/lib/wiring';
import { loadSystemOverview } from '@/lib/views/system-overview';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ deviceId: string }> };

// GET /api/systems/{deviceId}/overview — resources with this week's occupancy and now-status, and the 8-week heatmap
export const GET = withErrors(async (_request: Request, context: Context) => {
  const user = await requireUser();
  const deviceId = parseIdParam((await context.params).deviceId, 'system');
  const system = await requireSystemAccess(user, deviceId);
  const overview = await loadSystemOverview(await portalViewDeps(), system);
  return Response.json(overview);
});
