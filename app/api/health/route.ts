import { withErrors } from '@/lib/api/route';
import { checkHealth } from '@/lib/health';

export const dynamic = 'force-dynamic';

// GET /api/health — liveness: 503 only when the database is unreachable; a service or sandbox that
// cannot be reached is `degraded` with the reason, still 200 (restarting the portal would not help)
export const GET = withErrors(async () => {
  const report = await checkHealth();
  return Response.json(report, { status: report.status === 'error' ? 503 : 200 });
});
