import { withSystemAccess } from '@/lib/api/system-route';
import { parseIdParam } from '@/lib/views/params';
import { loadApartment } from '@/lib/views/apartment';
import { portalApartmentDeps } from '@/lib/wiring';

export const dynamic = 'force-dynamic';

// GET /api/systems/{deviceId}/apartments/{groupId} — an apartment: residents, rooms and quota, bookings, requests
export const GET = withSystemAccess<{ deviceId: string; groupId: string }>(async (_request, { system, params }) => {
  const groupId = parseIdParam(params.groupId, 'apartment');
  return Response.json(await loadApartment(await portalApartmentDeps(), system, groupId));
});
