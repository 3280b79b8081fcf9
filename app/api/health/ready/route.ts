import { withErrors } from '@/lib/api/route';
import { readinessResponse } from '@/lib/readiness';

export const dynamic = 'force-dynamic';

// GET /api/health/ready — readiness: database, migrations and an upstream access token
export const GET = withErrors(() => readinessResponse());
