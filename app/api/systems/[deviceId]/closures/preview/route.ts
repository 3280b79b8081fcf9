import { readJson } from '@/lib/api/body';
import { withSystemAccess } from '@/lib/api/system-route';
import { closureInputSchema, previewClosure } from '@/lib/closures';
import { portalClosureDeps } from '@/lib/wiring';

export const dynamic = 'force-dynamic';

// POST /api/systems/{deviceId}/closures/preview — the bookings a closure would cancel (the mirror refreshed first); stores nothing
export const POST = withSystemAccess(
  async (request, { system }) => {
    const input = closureInputSchema.parse(await readJson(request));
    const preview = await previewClosure(await portalClosureDeps(), system, input);
    return Response.json({ preview }, { headers: { 'Cache-Control': 'no-store' } });
  },
  { sameOrigin: true },
);
