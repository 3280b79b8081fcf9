import { requireSystemAccess } from '@/lib/auth/access';
import { requireAdmin, requireUser } from '@/lib/api/session';
import { readJson } from '@/lib/api/body';
import { withErrors } from '@/lib/api/route';
import { assertSameOrigin } from '@/lib/api/origin';
import { getDb } from '@/lib/db';
import { systemUpdateSchema } from '@/lib/systems/schemas';
import { updateSystem } from '@/lib/systems/store';
import { parseIdParam } from '@/lib/views/params';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ deviceId: string }> };

const parseDeviceId = async (context: Context) => parseIdParam((await context.params).deviceId, 'system');

// GET /api/systems/{deviceId} — one system's public fields, if the user may use it
export const GET = withErrors(async (_request: Request, context: Context) => {
  const user = await requireUser();
  const deviceId = await parseDeviceId(context);
  return Response.json({ system: await requireSystemAccess(user, deviceId) });
});

// PATCH /api/systems/{deviceId} — admin renames a system, or changes its time zone or booking horizon
export const PATCH = withErrors(async (request: Request, context: Context) => {
  assertSameOrigin(request);
  await requireAdmin();
  const deviceId = await parseDeviceId(context);
  const update = systemUpdateSchema.parse(await readJson(request));
  return Response.json({ system: await updateSystem((await getDb()).db, deviceId, update) });
});
