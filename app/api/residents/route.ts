import { requireUser } from '@/lib/auth/session';
import { ApiError, withErrors } from '@/lib/api/errors';
import { searchResidentsFor } from '@/lib/views/live-deps';
import { isMalformedResidentQuery, residentQuerySchema } from '@/lib/views/residents';

export const dynamic = 'force-dynamic';

// GET /api/residents?q=<apartment|email|reference> — residents of the viewer's systems, with the resources each may book
export const GET = withErrors(async (request: Request) => {
  const user = await requireUser();
  const parsed = residentQuerySchema.safeParse(new URL(request.url).searchParams.get('q') ?? '');
  if (!parsed.success) {
    const code = isMalformedResidentQuery(parsed.error.issues) ? 'bad_request' : 'unprocessable_entity';
    throw new ApiError(code, parsed.error.issues[0]?.message ?? 'Invalid search.');
  }
  const residents = await searchResidentsFor(user, parsed.data);
  return Response.json({ residents });
});
