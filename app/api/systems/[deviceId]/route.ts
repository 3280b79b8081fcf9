import { requireAdmin } from '@/lib/api/session';
import { readJson } from '@/lib/api/body';
import { withErrors } from '@/lib/api/route';
import { assertSameOrigin } from '@/lib/api/origin';
import { withSystemAccess } from '@/lib/api/system-route';
import { getDb } from '@/lib/db';
import { systemUpdateSchema } from '@/lib/systems/schemas';
import { updateSystem } from '@/lib/systems/store';
import { parseIdParam } from '@/lib/views/params';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ deviceId: string }> };

// GET /api/systems/{deviceId} — one system's public fields, if the user may use it
export const GET = withSystemAccess((_request, { system }) => Promise.resolve(Response.json({ system })));

// PATCH /api/systems/{deviceId} — admin renames a system, sets its street, city or area, or changes its time zone or booking horizon
export const PATCH = withErrors(async (request: Request, context: Context) => {
  assertSameOrigin(request);
  await requireAdmin();
  const deviceId = parseIdParam((await context.params).deviceId, 'system');
  const update = systemUpdateSchema.parse(await readJson(request));
  return Response.json({ system: await updateSystem((await getDb()).db, deviceId, update) });
});
