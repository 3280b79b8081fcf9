import { visibleTo } from '@/lib/auth/access';
import { getDb } from '@/lib/db';
import { requireUser } from '@/lib/api/session';
import { withErrors } from '@/lib/api/route';
import { loadSystemList, systemListParamsOrThrow, warmFreeToday } from '@/lib/views/systems-list';
import { log } from '@/lib/log';

export const dynamic = 'force-dynamic';

// GET /api/systems — one page of the systems the signed-in user may use (?q, group, area, filter, page, size)
export const GET = withErrors(async (request: Request) => {
  const params = systemListParamsOrThrow(new URL(request.url).searchParams);
  const user = await requireUser();
  const deps = { db: (await getDb()).db };
  const list = await loadSystemList(deps, visibleTo(user.id), params);
  // Free slots today are worked out off this request's path, for the next look.
  warmFreeToday(deps).catch((error: unknown) => log.warn('systems list: free-slot pass failed', { error }));
  const { rows, ...rest } = list;
  return Response.json({ systems: rows, ...rest, params: undefined, page: params.page, size: params.size });
});
