import { listAccessibleSystems } from '@/lib/auth/access';
import { requireUser } from '@/lib/api/session';
import { withErrors } from '@/lib/api/route';

export const dynamic = 'force-dynamic';

// GET /api/systems — the systems the signed-in user may use
export const GET = withErrors(async () => {
  const user = await requireUser();
  return Response.json({ systems: await listAccessibleSystems(user) });
});
