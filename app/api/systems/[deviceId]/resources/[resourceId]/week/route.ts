import { requireSystemViewer } from '@/lib/auth/access';
import { withErrors } from '@/lib/api/errors';
import { measure } from '@/lib/observability/server-timing';
import { parseIdParam, parseWeekParam } from '@/lib/views/params';
import { portalViewDeps } from '@/lib/views/live-deps';
import { loadResourceWeek } from '@/lib/views/resource-week';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ deviceId: string; resourceId: string }> };

// GET /api/systems/{deviceId}/resources/{resourceId}/week?week=YYYY-Www — one week of a resource's slots with their states
export const GET = withErrors(async (request: Request, context: Context) => {
  const params = await context.params;
  const deviceId = parseIdParam(params.deviceId, 'system');
  const resourceId = parseIdParam(params.resourceId, 'resource');
  const week = parseWeekParam(new URL(request.url).searchParams.get('week'));
  const { system } = await requireSystemViewer(deviceId);
  const view = await measure('view', async () => loadResourceWeek(await portalViewDeps(), system, resourceId, week));
  return measure('json', () => Promise.resolve(Response.json(view)));
});
