import { withErrors } from '@/lib/api/route';
import { assertSameOrigin } from '@/lib/api/origin';
import { requireUser } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import { parseFeedId, rotateFeed } from '@/lib/feeds/feeds';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ feedId: string }> };

// POST /api/feeds/{feedId}/rotate — a new address for a calendar feed, the old one stops working at once; { feed, url }
export const POST = withErrors(async (request: Request, { params }: Context) => {
  assertSameOrigin(request);
  const user = await requireUser();
  const feedId = parseFeedId((await params).feedId);
  return Response.json(await rotateFeed((await getDb()).db, { user, feedId, portalUrl: env.PORTAL_URL }));
});
