import { withSystemAccess } from '@/lib/api/system-route';
import { getDb } from '@/lib/db';
import { liftClosure, readClosureView } from '@/lib/closures';
import { parseClosureId } from '@/lib/closures/params';

export const dynamic = 'force-dynamic';

type Params = { deviceId: string; closureId: string };

// GET /api/systems/{deviceId}/closures/{closureId} — one closure with its progress (total, sent, cancelled, failed, skipped) and each booking's outcome
export const GET = withSystemAccess<Params>(async (_request, { system, params }) => {
  const closure = await readClosureView((await getDb()).db, system, parseClosureId(params.closureId));
  return Response.json({ closure }, { headers: { 'Cache-Control': 'no-store' } });
});

// DELETE /api/systems/{deviceId}/closures/{closureId} — lift a closure: its rooms may be booked again (cancelled bookings are not restored); 200 { closure }
export const DELETE = withSystemAccess<Params>(
  async (_request, { user, system, params }) => {
    const closure = await liftClosure((await getDb()).db, system, parseClosureId(params.closureId), user);
    return Response.json({ closure }, { headers: { 'Cache-Control': 'no-store' } });
  },
  { sameOrigin: true },
);
