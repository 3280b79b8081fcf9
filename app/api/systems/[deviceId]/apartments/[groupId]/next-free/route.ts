import { withSystemAccess } from '@/lib/api/system-route';
import { parseIdParam } from '@/lib/views/params';
import { parseNextFreeQuery } from '@/lib/views/apartment-params';
import { loadNextFree } from '@/lib/views/apartment';
import { portalApartmentDeps } from '@/lib/wiring';

export const dynamic = 'force-dynamic';

// GET /api/systems/{deviceId}/apartments/{groupId}/next-free?kind=&dayPart=&count= — the apartment's next free slots
export const GET = withSystemAccess<{ deviceId: string; groupId: string }>(async (request, { system, params }) => {
  const groupId = parseIdParam(params.groupId, 'apartment');
  const query = parseNextFreeQuery(new URL(request.url).searchParams);
  return Response.json(await loadNextFree(await portalApartmentDeps(), system, groupId, query));
});
