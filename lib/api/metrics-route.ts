import 'server-only';
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import type { Database } from '@/lib/db';
import { log } from '@/lib/log';
import { bucketTokens } from '@/lib/mirror/policy';
import { readBudgets, readRefreshTimes } from '@/lib/mirror/store';
import { getMetrics } from '@/lib/observability/metrics';

export interface MetricsRouteDeps {
  /** METRICS_TOKEN; undefined means the endpoint does not exist (404). */
  token: string | undefined;
  /** The database the mirror's ages are read from at scrape time. */
  db: () => Promise<Database>;
  /** MIRROR_REQUEST_BUDGET_PER_HOUR: the bucket gauge is set when above 0. */
  budgetPerHour?: number;
  now?: () => number;
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
export function hasBearerToken(request: Request, token: string): boolean {
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  // Digests of equal length, so that neither the comparison nor its set-up depends on the guess.
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}

/**
 * GET /api/metrics: the Prometheus text format, for a scraper holding METRICS_TOKEN. Without the
 * setting the endpoint answers 404, as if it did not exist; without the right token 401.
 */
export async function metricsResponse(request: Request, deps: MetricsRouteDeps): Promise<Response> {
  if (deps.token === undefined) throw new ApiError('not_found', msg('errors.noSuchApi', { path: '/api/metrics' }));
  if (!hasBearerToken(request, deps.token)) {
    throw new ApiError('unauthorized', msg('errors.metricsToken'), { 'WWW-Authenticate': 'Bearer realm="metrics"' });
  }
  const metrics = getMetrics();
  await updateMirrorAges(deps);
  await updateBudgets(deps);
  return new Response(await metrics.registry.metrics(), {
    status: 200,
    headers: { 'Content-Type': metrics.registry.contentType, 'Cache-Control': 'no-store' },
  });
}

/** Sets the data-age gauge from mirror_state, so that it holds for refreshes made by any process. */
async function updateMirrorAges(deps: MetricsRouteDeps): Promise<void> {
  const gauge = getMetrics().mirrorDataAge;
  try {
    const times = await readRefreshTimes(await deps.db());
    const now = (deps.now ?? Date.now)();
    gauge.reset();
    for (const { deviceId, refreshedAt } of times) gauge.set({ system: deviceId }, Math.max(0, (now - refreshedAt.getTime()) / 1000));
  } catch (error) {
    // The rest of the metrics are still worth answering; the gauge keeps its last values.
    log.warn('metrics: could not read the mirror state', { error });
  }
}

/** Sets the budget gauge from mirror_state (charges by every instance), refilled to now as the claim sees it. */
async function updateBudgets(deps: MetricsRouteDeps): Promise<void> {
  const gauge = getMetrics().mirrorBudgetTokens;
  const perHour = deps.budgetPerHour ?? 0;
  if (perHour <= 0) return;
  try {
    const rows = await readBudgets(await deps.db());
    const now = new Date((deps.now ?? Date.now)());
    gauge.reset();
    for (const row of rows) gauge.set({ system: row.deviceId }, Math.round(bucketTokens(row, perHour, now) * 10) / 10);
  } catch (error) {
    log.warn('metrics: could not read the refresh budgets', { error });
  }
}
