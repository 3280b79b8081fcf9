import { withErrors } from '@/lib/api/route';
import { assertSameOrigin } from '@/lib/api/origin';
import { requireSystemAccess } from '@/lib/auth/access';
import { requireUser } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { liftClosure, readClosureView } from '@/lib/closures';
import { parseClosureId } from '@/lib/closures/params';
import { parseIdParam } from '@/lib/views/params';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ deviceId: string; closureId: string }> };

// GET /api/systems/{deviceId}/closures/{closureId} — one closure with its progress (total, sent, cancelled, failed, skipped) and each booking's outcome
export const GET = withErrors(async (_request: Request, context: Context) => {
  const user = await requireUser();
  const params = await context.params;
  const deviceId = parseIdParam(params.deviceId, 'system');
  const closureId = parseClosureId(params.closureId);
  const system = await requireSystemAccess(user, deviceId);
  const closure = await readClosureView((await getDb()).db, system, closureId);
  return Response.json({ closure }, { headers: { 'Cache-Control': 'no-store' } });
});

// DELETE /api/systems/{deviceId}/closures/{closureId} — lift a closure: its rooms may be booked again (cancelled bookings are not restored); 200 { closure }
export const DELETE = withErrors(async (request: Request, context: Context) => {
  assertSameOrigin(request);
  const user = await requireUser();
  const params = await context.params;
  const deviceId = parseIdParam(params.deviceId, 'system');
  const closureId = parseClosureId(params.closureId);
  const system = await requireSystemAccess(user, deviceId);
  const closure = await liftClosure((await getDb()).db, system, closureId, user);
  return Response.json({ closure }, { headers: { 'Cache-Control': 'no-store' } });
});
