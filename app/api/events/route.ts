import { withErrors } from '@/lib/api/errors';
import { visibleDeviceIds } from '@/lib/auth/access';
import { requireUser } from '@/lib/auth/session';
import { getDb } from '@/lib/db';
import { getEventBus } from '@/lib/events/bus';
import { eventStreamResponse } from '@/lib/events/stream-route';

export const dynamic = 'force-dynamic';

// GET /api/events — Server-Sent Events of request outcomes for the systems the user may see
export const GET = withErrors(async (request: Request) => {
  const user = await requireUser();
  const deviceIds = await visibleDeviceIds(user);
  return eventStreamResponse(request, { db: (await getDb()).db, bus: getEventBus(), deviceIds });
});
