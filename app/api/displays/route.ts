import { readJson } from '@/lib/api/body';
import { withErrors } from '@/lib/api/route';
import { addressUsed, assertSameOrigin } from '@/lib/api/origin';
import { requireUser } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { createDisplay, createDisplayInputSchema, listDisplays } from '@/lib/displays/displays';
import { parseIdempotencyKey } from '@/lib/reservations';
import { parseIdParam } from '@/lib/views/params';

export const dynamic = 'force-dynamic';

// GET /api/displays?system={deviceId} — a system's active displays (never their addresses)
export const GET = withErrors(async (request: Request) => {
  const user = await requireUser();
  const deviceId = parseIdParam(new URL(request.url).searchParams.get('system') ?? undefined, 'system');
  return Response.json({ displays: await listDisplays((await getDb()).db, user, deviceId) });
});

// POST /api/displays — create a laundry-room display for a room, some rooms or a building (Idempotency-Key required); 201 { display, url }, the url shown only now
export const POST = withErrors(async (request: Request) => {
  assertSameOrigin(request);
  const user = await requireUser();
  const idempotencyKey = parseIdempotencyKey(request.headers.get('idempotency-key'));
  const input = createDisplayInputSchema.parse(await readJson(request));
  const issued = await createDisplay((await getDb()).db, { user, input, idempotencyKey, portalUrl: addressUsed(request) });
  return Response.json(issued, { status: 201 });
});
