import { readJson } from '@/lib/api/body';
import { withSystemAccess } from '@/lib/api/system-route';
import { getDb } from '@/lib/db';
import { closureInputSchema, createClosure, listClosures } from '@/lib/closures';
import { portalClosureDeps } from '@/lib/wiring';
import { parseIdempotencyKey } from '@/lib/reservations';

export const dynamic = 'force-dynamic';

// GET /api/systems/{deviceId}/closures — the system's room closures in force or to come, with their progress
export const GET = withSystemAccess(async (_request, { system }) => {
  const closures = await listClosures((await getDb()).db, system);
  return Response.json({ closures }, { headers: { 'Cache-Control': 'no-store' } });
});

// POST /api/systems/{deviceId}/closures — close rooms for a period and cancel their bookings (Idempotency-Key required); 201 { closure }, 200 for a repeated key
export const POST = withSystemAccess(
  async (request, { user, system }) => {
    const idempotencyKey = parseIdempotencyKey(request.headers.get('idempotency-key'));
    const input = closureInputSchema.parse(await readJson(request));
    const { closure, fresh } = await createClosure(await portalClosureDeps(), { requester: user, system, input, idempotencyKey });
    return Response.json({ closure }, { status: fresh ? 201 : 200, headers: { 'Cache-Control': 'no-store' } });
  },
  { sameOrigin: true },
);
