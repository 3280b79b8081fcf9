import { withErrors } from '@/lib/api/route';
import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import { metricsResponse } from '@/lib/api/metrics-route';

export const dynamic = 'force-dynamic';

// GET /api/metrics — Prometheus metrics for a scraper holding METRICS_TOKEN (404 when unset)
export const GET = withErrors((request: Request) =>
  metricsResponse(request, { token: env.METRICS_TOKEN, db: async () => (await getDb()).db, budgetPerHour: env.MIRROR_REQUEST_BUDGET_PER_HOUR }),
);
