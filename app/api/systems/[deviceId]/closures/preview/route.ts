import { readJson } from '@/lib/api/body';
import { withErrors } from '@/lib/api/route';
import { assertSameOrigin } from '@/lib/api/origin';
import { requireSystemAccess } from '@/lib/auth/access';
import { requireUser } from '@/lib/api/session';
import { closureInputSchema, previewClosure } from '@/lib/closures';
import { portalClosureDeps } from '@/lib/wiring';
import { parseIdParam } from '@/lib/views/params';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ deviceId: string }> };

// POST /api/systems/{deviceId}/closures/preview — the bookings a closure would cancel (the mirror refreshed first); stores nothing
export const POST = withErrors(async (request: Request, context: Context) => {
  assertSameOrigin(request);
  const user = await requireUser();
  const deviceId = parseIdParam((await context.params).deviceId, 'system');
  const input = closureInputSchema.parse(await readJson(request));
  const system = await requireSystemAccess(user, deviceId);
  const preview = await previewClosure(await portalClosureDeps(), system, input);
  return Response.json({ preview }, { headers: { 'Cache-Control': 'no-store' } });
});
