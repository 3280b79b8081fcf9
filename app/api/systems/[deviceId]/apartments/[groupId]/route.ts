import { requireSystemAccess } from '@/lib/auth/access';
import { requireUser } from '@/lib/api/session';
import { withErrors } from '@/lib/api/route';
import { parseIdParam } from '@/lib/views/params';
import { loadApartment } from '@/lib/views/apartment';
import { portalApartmentDeps } from '@/lib/wiring';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ deviceId: string; groupId: string }> };

// GET /api/systems/{deviceId}/apartments/{groupId} — an apartment: residents, rooms and quota, bookings, requests
export const GET = withErrors(async (_request: Request, context: Context) => {
  const user = await requireUser();
  const params = await context.params;
  const deviceId = parseIdParam(params.deviceId, 'system');
  const groupId = parseIdParam(params.groupId, 'apartment');
  const system = await requireSystemAccess(user, deviceId);
  return Response.json(await loadApartment(await portalApartmentDeps(), system, groupId));
});
