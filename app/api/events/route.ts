import { withErrors } from '@/lib/api/errors';
import { listAccessibleSystems } from '@/lib/auth/access';
import { requireUser } from '@/lib/auth/session';
import { getDb } from '@/lib/db';
import { getEventBus } from '@/lib/events/bus';
import { eventStreamResponse } from '@/lib/events/stream-route';

export const dynamic = 'force-dynamic';

// GET /api/events — Server-Sent Events of request outcomes for the systems the user may see
export const GET = withErrors(async (request: Request) => {
  const user = await requireUser();
  const deviceIds = user.role === 'admin' ? ('all' as const) : (await listAccessibleSystems(user)).map((s) => s.deviceId);
  return eventStreamResponse(request, { sql: (await getDb()).sql, bus: getEventBus(), deviceIds });
});
