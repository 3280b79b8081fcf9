import { z } from 'zod';
import { requireAdmin } from '@/lib/api/session';
import { readJson } from '@/lib/api/body';
import { withErrors } from '@/lib/api/route';
import { assertSameOrigin } from '@/lib/api/origin';
import { connectSystemsByApproval } from '@/lib/wiring';

export const dynamic = 'force-dynamic';

const bodySchema = z.object({ approvalId: z.string() }).strict();

// POST /api/admin/systems — admin connects the systems an approval id covers
export const POST = withErrors(async (request: Request) => {
  assertSameOrigin(request);
  const admin = await requireAdmin();
  const { approvalId } = bodySchema.parse(await readJson(request));
  return Response.json({ systems: await connectSystemsByApproval(approvalId, admin) }, { status: 201 });
});
