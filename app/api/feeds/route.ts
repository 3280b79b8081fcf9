import { readJson } from '@/lib/api/body';
import { withErrors, localeOfRequest } from '@/lib/api/route';
import { assertSameOrigin } from '@/lib/api/origin';
import { requireUser } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import { createFeed, createFeedInputSchema } from '@/lib/feeds/feeds';
import { parseIdempotencyKey } from '@/lib/reservations';

export const dynamic = 'force-dynamic';

// POST /api/feeds — create a calendar feed for a room or an apartment (Idempotency-Key required); 201 { feed, url }, the url shown only now
export const POST = withErrors(async (request: Request) => {
  assertSameOrigin(request);
  const user = await requireUser();
  const idempotencyKey = parseIdempotencyKey(request.headers.get('idempotency-key'));
  const input = createFeedInputSchema.parse(await readJson(request));
  const locale = await localeOfRequest(request);
  const issued = await createFeed((await getDb()).db, { user, input, locale, idempotencyKey, portalUrl: env.PORTAL_URL });
  return Response.json(issued, { status: 201 });
});
