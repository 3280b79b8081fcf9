import { requireSystemViewer } from '@/lib/api/viewer';
import { withErrors } from '@/lib/api/route';
import { measure } from '@/lib/observability/server-timing';
import { parseIdParam, parseWeekParam } from '@/lib/views/params';
import { portalViewDeps } from '@/lib/wiring';
import { anyZoneWeekRange, resourceWeekJson, weekInputReads } from '@/lib/views/resource-week';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ deviceId: string; resourceId: string }> };

// GET /api/systems/{deviceId}/resources/{resourceId}/week?week=YYYY-Www — one week of a resource's slots with their states
export const GET = withErrors(async (request: Request, context: Context) => {
  const params = await context.params;
  const deviceId = parseIdParam(params.deviceId, 'system');
  const resourceId = parseIdParam(params.resourceId, 'resource');
  const week = parseWeekParam(new URL(request.url).searchParams.get('week'));
  // The system, the access and the week's inputs (state row, requests, closures) in one statement.
  const { system, state, requests, closures, rules } = await requireSystemViewer(deviceId, () => weekInputReads(deviceId, resourceId, anyZoneWeekRange(week, Date.now())));
  const json = await measure('view', async () => resourceWeekJson(await portalViewDeps(), system, resourceId, week, { state, requests, closures, rules }));
  return new Response(json, { headers: { 'Content-Type': 'application/json' } });
});
