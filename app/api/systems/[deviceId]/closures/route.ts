import { readJson } from '@/lib/api/body';
import { withErrors } from '@/lib/api/route';
import { assertSameOrigin } from '@/lib/api/origin';
import { requireSystemAccess } from '@/lib/auth/access';
import { requireUser } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { closureInputSchema, createClosure, listClosures } from '@/lib/closures';
import { portalClosureDeps } from '@/lib/wiring';
import { parseIdempotencyKey } from '@/lib/reservations';
import { parseIdParam } from '@/lib/views/params';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ deviceId: string }> };

// GET /api/systems/{deviceId}/closures — the system's room closures in force or to come, with their progress
export const GET = withErrors(async (_request: Request, context: Context) => {
  const user = await requireUser();
  const deviceId = parseIdParam((await context.params).deviceId, 'system');
  const system = await requireSystemAccess(user, deviceId);
  const closures = await listClosures((await getDb()).db, system);
  return Response.json({ closures }, { headers: { 'Cache-Control': 'no-store' } });
});

// POST /api/systems/{deviceId}/closures — close rooms for a period and cancel their bookings (Idempotency-Key required); 201 { closure }, 200 for a repeated key
export const POST = withErrors(async (request: Request, context: Context) => {
  assertSameOrigin(request);
  const user = await requireUser();
  const deviceId = parseIdParam((await context.params).deviceId, 'system');
  const idempotencyKey = parseIdempotencyKey(request.headers.get('idempotency-key'));
  const input = closureInputSchema.parse(await readJson(request));
  const system = await requireSystemAccess(user, deviceId);
  const { closure, fresh } = await createClosure(await portalClosureDeps(), { requester: user, system, input, idempotencyKey });
  return Response.json({ closure }, { status: fresh ? 201 : 200, headers: { 'Cache-Control': 'no-store' } });
});
