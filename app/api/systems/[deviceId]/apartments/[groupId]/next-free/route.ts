import { requireSystemAccess } from '@/lib/auth/access';
import { requireUser } from '@/lib/api/session';
import { withErrors } from '@/lib/api/route';
import { parseIdParam } from '@/lib/views/params';
import { parseNextFreeQuery } from '@/lib/views/apartment-params';
import { loadNextFree } from '@/lib/views/apartment';
import { portalApartmentDeps } from '@/lib/wiring';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ deviceId: string; groupId: string }> };

// GET /api/systems/{deviceId}/apartments/{groupId}/next-free?kind=&dayPart=&count= — the apartment's next free slots
export const GET = withErrors(async (request: Request, context: Context) => {
  const user = await requireUser();
  const params = await context.params;
  const deviceId = parseIdParam(params.deviceId, 'system');
  const groupId = parseIdParam(params.groupId, 'apartment');
  const query = parseNextFreeQuery(new URL(request.url).searchParams);
  const system = await requireSystemAccess(user, deviceId);
  return Response.json(await loadNextFree(await portalApartmentDeps(), system, groupId, query));
});
