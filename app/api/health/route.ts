import { withErrors } from '@/lib/api/errors';
import { checkHealth } from '@/lib/health';

export const dynamic = 'force-dynamic';

// GET /api/health — liveness of the portal and its database
export const GET = withErrors(async () => {
  const report = await checkHealth();
  return Response.json(report, { status: report.status === 'ok' ? 200 : 503 });
});
