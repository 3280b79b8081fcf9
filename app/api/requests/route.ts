import { withErrors } from '@/lib/api/route';
import { listAccessibleSystemsIn } from '@/lib/auth/access';
import { requireUser } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { parseRequestsQuery } from '@/lib/views/request-filters';
import { readRequestsFor } from '@/lib/views/requests';

export const dynamic = 'force-dynamic';

// GET /api/requests?deviceId=&status=&resident=&from=&to=&q=&before=|after=&limit= — a page of the
// booking requests of the systems the user may see, filtered, newest first (keyset paging)
export const GET = withErrors(async (request: Request) => {
  const user = await requireUser();
  const query = parseRequestsQuery(new URL(request.url).searchParams);
  const { db } = await getDb();
  const systems = await listAccessibleSystemsIn(db, user);
  return Response.json(await readRequestsFor(db, user, systems, query));
});
