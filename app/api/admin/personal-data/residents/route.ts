import { withErrors } from '@/lib/api/route';
import { requireAdmin } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { findResidents } from '@/lib/personal-data/find';

export const dynamic = 'force-dynamic';

// GET /api/admin/personal-data/residents?q=… — admin finds a resident in every system (booking systems' user lists and the portal's own records) by name, e-mail, apartment or reference id
export const GET = withErrors(async (request: Request) => {
  await requireAdmin();
  const { db } = await getDb();
  const found = await findResidents(db, new URL(request.url).searchParams.get('q') ?? '');
  return Response.json(found, { headers: { 'cache-control': 'private, no-store' } });
});
