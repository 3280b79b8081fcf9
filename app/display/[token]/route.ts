import { withErrors } from '@/lib/api/route';
import { clientIp } from '@/lib/auth/credentials';
import { displayPageResponse, portalDisplayRateLimiter } from '@/lib/displays/serve';
import { portalViewDeps } from '@/lib/wiring';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ token: string }> };

// GET /display/{token} — a laundry-room display's screen (no session: the token is the key); no personal data but chosen apartment numbers
export const GET = withErrors(async (request: Request, { params }: Context) => {
  const { token } = await params;
  return displayPageResponse({ ...(await portalViewDeps()), limiter: portalDisplayRateLimiter() }, token, clientIp(request.headers));
});
