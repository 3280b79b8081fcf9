import { ApiError } from '@/lib/errors/api-error';
import { withErrors } from '@/lib/api/route';
import { msg } from '@/lib/i18n/message';
import { currentStreamAccess } from '@/lib/events/stream-access';
import { visibleDeviceIds } from '@/lib/auth/access';
import { requestSessionClaims, requireUser } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { getEventBus } from '@/lib/events/bus';
import { eventStreamResponse } from '@/lib/events/stream-route';

export const dynamic = 'force-dynamic';

// GET /api/events — Server-Sent Events of request outcomes for the systems the user may see; the
// stream follows the user's access (lib/events/sse.ts: ends with `event: end` when the session does);
// open streams are capped per session and user, the oldest ended (`superseded`)
export const GET = withErrors(async (request: Request) => {
  const user = await requireUser();
  const { sessionVersion, sessionId } = await requestSessionClaims();
  if (sessionVersion === undefined) throw new ApiError('unauthorized', msg('errors.signIn'));
  const [deviceIds, { db }] = await Promise.all([visibleDeviceIds(user), getDb()]);
  return eventStreamResponse(request, {
    db,
    bus: getEventBus(),
    deviceIds,
    access: { userId: user.id, check: () => currentStreamAccess(db, user.id, sessionVersion) },
    // At most 10 open streams per session and 30 per user: beyond, the oldest ends `superseded`.
    owner: { userId: user.id, sessionId: sessionId ?? 'none' },
  });
});
