import { withErrors } from '@/lib/api/route';
import { clientIp } from '@/lib/auth/credentials';
import { getEventBus } from '@/lib/events/bus';
import { portalDisplayRateLimiter } from '@/lib/displays/serve';
import { displayEventsResponse, portalDisplayStreamCaps } from '@/lib/displays/stream';
import { portalViewDeps } from '@/lib/wiring';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ token: string }> };

// GET /display/{token}/events — the display's own event stream (text/event-stream, no session): "changed"
// with an event id for its rooms, `end` with `switched-off` (revoked, rotated) or `reload` (renamed); capped (429)
export const GET = withErrors(async (request: Request, { params }: Context) => {
  const { token } = await params;
  const deps = { ...(await portalViewDeps()), limiter: portalDisplayRateLimiter(), bus: getEventBus(), caps: portalDisplayStreamCaps() };
  return displayEventsResponse(deps, request, token, clientIp(request.headers));
});
