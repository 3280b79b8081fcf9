import { withErrors } from '@/lib/api/route';
import { addressUsed, assertSameOrigin } from '@/lib/api/origin';
import { requireUser } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { parseDisplayId, rotateDisplay } from '@/lib/displays/displays';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ displayId: string }> };

// POST /api/displays/{displayId}/rotate — a new address for a display, the old one switched off at once; { display, url }
export const POST = withErrors(async (request: Request, { params }: Context) => {
  assertSameOrigin(request);
  const user = await requireUser();
  const displayId = parseDisplayId((await params).displayId);
  return Response.json(await rotateDisplay((await getDb()).db, { user, displayId, portalUrl: addressUsed(request) }));
});
