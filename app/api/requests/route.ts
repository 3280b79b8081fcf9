import { withErrors } from '@/lib/api/errors';
import { requireSystemAccess, visibleDeviceIds } from '@/lib/auth/access';
import { requireUser } from '@/lib/auth/session';
import { getDb } from '@/lib/db';
import { listRequests, requestsQuerySchema } from '@/lib/reservations';

export const dynamic = 'force-dynamic';

// GET /api/requests?deviceId=&limit= — recent booking requests of the systems the user may see
export const GET = withErrors(async (request: Request) => {
  const user = await requireUser();
  const params = new URL(request.url).searchParams;
  const query = requestsQuerySchema.parse({ deviceId: params.get('deviceId') ?? undefined, limit: params.get('limit') ?? undefined });
  let deviceIds: string[] | 'all';
  if (query.deviceId) deviceIds = [(await requireSystemAccess(user, query.deviceId)).deviceId];
  else deviceIds = await visibleDeviceIds(user);
  const requests = await listRequests((await getDb()).db, deviceIds, query.limit);
  return Response.json({ requests });
});
