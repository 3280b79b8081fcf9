import 'server-only';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { singleton } from '@/lib/singleton';

/**
 * The portal's Prometheus metrics, on one registry per process (a production build loads this
 * module into several chunks; see lib/singleton.ts). Served by GET /api/metrics.
 */
function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpDuration: new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'API requests handled, by matched route template (unmatched for any other path), method and status',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    upstreamCalls: new Counter({
      name: 'portal_upstream_requests_total',
      help: 'HTTP exchanges with the reservation service (token endpoint included), by operation and outcome',
      labelNames: ['operation', 'outcome'] as const,
      registers,
    }),
    upstreamDuration: new Histogram({
      name: 'portal_upstream_request_duration_seconds',
      help: 'Duration of HTTP exchanges with the reservation service, by operation and outcome',
      labelNames: ['operation', 'outcome'] as const,
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    breakerState: new Gauge({
      name: 'portal_upstream_circuit_state',
      help: 'Circuit breaker per upstream and lane: 0 closed, 1 half-open, 2 open',
      labelNames: ['upstream', 'lane'] as const,
      registers,
    }),
    mirrorRefreshDuration: new Histogram({
      name: 'portal_mirror_refresh_duration_seconds',
      help: 'Duration of mirror refreshes of one system, by result',
      labelNames: ['result'] as const,
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers,
    }),
    mirrorDataAge: new Gauge({
      name: 'portal_mirror_data_age_seconds',
      help: "Seconds since a system's mirror was last refreshed successfully (read from mirror_state at scrape time)",
      labelNames: ['system'] as const,
      registers,
    }),
    mirrorRefreshRequests: new Counter({
      name: 'portal_mirror_refresh_requests_total',
      help: "Upstream requests made by this process's mirror refreshes (retries and token requests included), by system",
      labelNames: ['system'] as const,
      registers,
    }),
    mirrorBudgetTokens: new Gauge({
      name: 'portal_mirror_request_budget_tokens',
      help: "Requests left in a system's refresh budget bucket (negative: in debt), read from mirror_state at scrape time",
      labelNames: ['system'] as const,
      registers,
    }),
    webhookLag: new Histogram({
      name: 'portal_webhook_lag_seconds',
      help: "Time from an event's own timestamp to its receipt, for webhooks that carry one",
      labelNames: ['event_type'] as const,
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
      registers,
    }),
    sseClients: new Gauge({
      name: 'portal_sse_clients',
      help: 'Open server-sent event streams',
      // Set from the set of open streams whenever it changes (lib/events/open-streams.ts), never
      // counted by hand: a hand-kept count drifts whenever a close path forgets to decrement.
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

export function getMetrics(): Metrics {
  return singleton('metrics', createMetrics);
}

/** Upstream exchange outcomes as the `outcome` label tells them. */
export type UpstreamOutcome = 'success' | 'client_error' | 'rate_limited' | 'server_error' | 'timeout' | 'network' | 'circuit_open' | 'unreadable' | 'error';

export function upstreamOutcomeOfStatus(status: number): UpstreamOutcome {
  if (status >= 200 && status < 400) return 'success';
  if (status === 429) return 'rate_limited';
  if (status === 408 || status >= 500) return 'server_error';
  return 'client_error';
}
