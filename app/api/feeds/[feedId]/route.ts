import { withErrors } from '@/lib/api/route';
import { assertSameOrigin } from '@/lib/api/origin';
import { requireUser } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { parseFeedId, revokeFeed } from '@/lib/feeds/feeds';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ feedId: string }> };

// DELETE /api/feeds/{feedId} — revoke a calendar feed: its address answers 404 from now on; { feedId, revoked: true }
export const DELETE = withErrors(async (request: Request, { params }: Context) => {
  assertSameOrigin(request);
  const user = await requireUser();
  const feedId = parseFeedId((await params).feedId);
  await revokeFeed((await getDb()).db, { user, feedId });
  return Response.json({ feedId, revoked: true });
});
