import { withErrors } from '@/lib/api/route';
import { clientIp } from '@/lib/auth/credentials';
import { FEED_HEADERS, feedResponse, portalFeedRateLimiter } from '@/lib/feeds/serve';
import { portalViewDeps } from '@/lib/wiring';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ file: string }> };

// GET /feeds/{token}.ics — a room's or an apartment's calendar feed (iCal) for calendar apps; no session, the token is the key
export const GET = withErrors(async (request: Request, { params }: Context) => {
  const { file } = await params;
  return feedResponse({ ...(await portalViewDeps()), limiter: portalFeedRateLimiter() }, file, clientIp(request.headers));
  // The metrics label is the route template (lib/observability/route-table.ts), never the token.
  // The address is the secret: no answer, a 404 included, sends it as a referrer or is indexed.
}, { headers: FEED_HEADERS });
