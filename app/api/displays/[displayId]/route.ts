import { readJson } from '@/lib/api/body';
import { withErrors } from '@/lib/api/route';
import { assertSameOrigin } from '@/lib/api/origin';
import { requireUser } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { parseDisplayId, revokeDisplay, updateDisplay, updateDisplayInputSchema } from '@/lib/displays/displays';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ displayId: string }> };

// PATCH /api/displays/{displayId} — rename a display, or change its language or whether apartments show; { display }
export const PATCH = withErrors(async (request: Request, { params }: Context) => {
  assertSameOrigin(request);
  const user = await requireUser();
  const displayId = parseDisplayId((await params).displayId);
  const input = updateDisplayInputSchema.parse(await readJson(request));
  return Response.json({ display: await updateDisplay((await getDb()).db, { user, displayId, input }) });
});

// DELETE /api/displays/{displayId} — switch a display off: its screen says so within one update; { displayId, revoked: true }
export const DELETE = withErrors(async (request: Request, { params }: Context) => {
  assertSameOrigin(request);
  const user = await requireUser();
  const displayId = parseDisplayId((await params).displayId);
  await revokeDisplay((await getDb()).db, { user, displayId });
  return Response.json({ displayId, revoked: true });
});
