import { withErrors } from '@/lib/api/route';
import { clientIp } from '@/lib/auth/credentials';
import { displayScreenResponse, portalDisplayRateLimiter } from '@/lib/displays/serve';
import { portalViewDeps } from '@/lib/wiring';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ token: string }> };

// GET /display/{token}/screen — the display's rooms as HTML in JSON, for the screen's script; 410 once switched off
export const GET = withErrors(async (request: Request, { params }: Context) => {
  const { token } = await params;
  return displayScreenResponse({ ...(await portalViewDeps()), limiter: portalDisplayRateLimiter() }, token, clientIp(request.headers));
});
