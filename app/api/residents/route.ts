import { ApiError } from '@/lib/errors/api-error';
import { withErrors } from '@/lib/api/route';
import { msg } from '@/lib/i18n/message';
import { measure } from '@/lib/observability/server-timing';
import { searchResidentsAsViewer } from '@/lib/api/resident-search';
import { isUuid } from '@/lib/views/page-access';
import { parseResidentQuery } from '@/lib/views/residents';

export const dynamic = 'force-dynamic';

// GET /api/residents?q=…[&deviceId=…] — apartments and residents of the viewer's systems (or one of them) matching a name, apartment, e-mail or reference id, as you type
export const GET = withErrors(async (request: Request) => {
  const url = new URL(request.url);
  const parsed = parseResidentQuery(url.searchParams.get('q'));
  if (!parsed.ok) throw new ApiError('bad_request', parsed.message);
  const deviceId = url.searchParams.get('deviceId');
  if (deviceId !== null && !isUuid(deviceId)) throw new ApiError('bad_request', msg('errors.deviceIdNotUuid'));
  return Response.json(await measure('search', () => searchResidentsAsViewer(parsed.query, deviceId ?? undefined)));
});
