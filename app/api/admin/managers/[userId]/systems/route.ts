import { z } from 'zod';
import { readJson } from '@/lib/api/body';
import { assertSameOrigin } from '@/lib/api/origin';
import { withErrors } from '@/lib/api/route';
import { requireAdmin } from '@/lib/api/session';
import { changeManagerSystems, previewManagerSystems } from '@/lib/admin/accounts';
import { getDb } from '@/lib/db';
import { vkey } from '@/lib/i18n/validation-key';
import { systemFilterSchema, systemSelectionSchema } from '@/lib/systems/selection';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ userId: string }> };

const userIdSchema = z.uuid(vkey('validation.uuid'));
const bodySchema = z.object({ change: z.enum(['assign', 'unassign']), selection: systemSelectionSchema }).strict();

// GET /api/admin/managers/{userId}/systems?match=&area=&connectionId= — admin counts the systems a filter selects and how many of them the manager has (the dry run)
export const GET = withErrors(async (request: Request, { params }: Context) => {
  await requireAdmin();
  const userId = userIdSchema.parse((await params).userId);
  const query = new URL(request.url).searchParams;
  const filter = systemFilterSchema.parse({ match: query.get('match') ?? undefined, area: query.get('area') ?? undefined, connectionId: query.get('connectionId') ?? undefined });
  const { matching, assigned } = await previewManagerSystems((await getDb()).db, userId, filter);
  return Response.json({ matching, assigned });
});

// POST /api/admin/managers/{userId}/systems — admin gives the manager every system a selection names, or takes them back ({change, selection}); one statement, one audit entry
export const POST = withErrors(async (request: Request, { params }: Context) => {
  assertSameOrigin(request);
  const admin = await requireAdmin();
  const userId = userIdSchema.parse((await params).userId);
  const { change, selection } = bodySchema.parse(await readJson(request));
  const { matching, changed } = await changeManagerSystems((await getDb()).db, admin, userId, selection, change);
  return Response.json({ change, matching, changed });
});
