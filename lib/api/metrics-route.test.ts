import { randomBytes, randomUUID } from 'node:crypto';
import parsePrometheusTextFormat, { type ParsedFamily, type ParsedSample } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as metricsRoute } from '@/app/api/metrics/route';
import { withErrors } from '@/lib/api/route';
import { InProcessEventBus } from '@/lib/events/bus';
import { handleWebhookRequest } from '@/lib/events/receive';
import { readReservations, readResources, readTimeSchedules } from '@/lib/mirror/store';
import { applyWebhookOutcome } from '@/lib/reservations/lifecycle';
import { requestBooking, type ReservationDeps } from '@/lib/reservations/requests';
import { expandRange } from '@/lib/schedule';
import type { ServiceClient } from '@/lib/service';
import type { Sandbox, SandboxFixtures } from '@/sandbox';
import { describeWithDb } from '@/tests/db';
import { startConnectedSandbox, type ConnectedSandbox } from '@/tests/connected-sandbox';
import { metricsResponse, type MetricsRouteDeps } from './metrics-route';

const TOKEN = randomBytes(24).toString('base64url');
const DAY = 86_400_000;

const scrapeRoute = (deps: MetricsRouteDeps) => withErrors((request: Request) => metricsResponse(request, deps));
const get = (authorization?: string) =>
  new Request('http://portal.test/api/metrics', { headers: authorization === undefined ? {} : { authorization } });
const noDb = () => Promise.reject(new Error('no database in this test'));

/**
 * The scrape parsed by parse-prometheus-text-format. That parser folds a histogram with labels
 * into one sample (dropping its labels, count and sum), so a second pass reads histograms as the
 * plain `_bucket`, `_sum` and `_count` series they are on the wire; families the text splits are merged.
 */
function parse(text: string): ParsedFamily[] {
  const types = parsePrometheusTextFormat(text);
  const flat = parsePrometheusTextFormat(text.replace(/^# TYPE (\S+) histogram$/gm, '# TYPE $1 untyped'));
  const merged = new Map<string, ParsedFamily>();
  for (const f of flat) {
    const known = merged.get(f.name);
    if (known) known.metrics.push(...f.metrics);
    else merged.set(f.name, { ...f, type: types.find((t) => t.name === f.name)?.type ?? f.type, metrics: [...f.metrics] });
  }
  return [...merged.values()];
}

function family(families: ParsedFamily[], name: string): ParsedFamily {
  const found = families.find((f) => f.name === name);
  if (!found) throw new Error(`metric ${name} not in the scrape`);
  return found;
}

/** The value of the one series of `name` with these labels (0 when there is none yet). */
function valueOf(families: ParsedFamily[], name: string, labels: Record<string, string>): number {
  const found = families.find((f) => f.name === name);
  const samples = found ? withLabels(found, labels) : [];
  if (samples.length > 1) throw new Error(`${name} has ${samples.length} series with ${JSON.stringify(labels)}`);
  return Number(samples[0]?.value ?? 0);
}
const withLabels = (f: ParsedFamily, labels: Record<string, string>): ParsedSample[] =>
  f.metrics.filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

describe('GET /api/metrics: the token', () => {
  it('answers 404 when METRICS_TOKEN is unset (the route as deployed, in tests)', async () => {
    const response = await metricsRoute(get(`Bearer ${TOKEN}`), undefined);
    expect(response.status).toBe(404);
  });

  it('answers 401 without the right bearer token, in every spelling of wrong', async () => {
    const route = scrapeRoute({ token: TOKEN, db: noDb });
    for (const header of [undefined, '', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, `Basic ${TOKEN}`, TOKEN, 'Bearer ']) {
      const response = await route(get(header), undefined);
      expect(response.status, String(header)).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await response.text()).not.toContain(TOKEN);
    }
  });

  it('answers 200 in the Prometheus text format with the right token', async () => {
    const response = await scrapeRoute({ token: TOKEN, db: noDb })(get(`Bearer ${TOKEN}`), undefined);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = parse(await response.text());
    // prom-client's default process metrics are there.
    expect(families.map((f) => f.name)).toEqual(expect.arrayContaining(['process_cpu_user_seconds_total', 'nodejs_heap_size_used_bytes']));
  });
});

describeWithDb('GET /api/metrics after real traffic', (ctx) => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  let sandbox: Sandbox;
  let fixtures: SandboxFixtures;
  let client: ServiceClient;
  let apiKey: string;
  let deviceId: string;
  const bus = new InProcessEventBus();

  let connected: ConnectedSandbox;

  beforeAll(async () => {
    const webhookRoute = withErrors((request: Request) => handleWebhookRequest(request, { db: ctx().handle.db, bus, secret, applyOutcome: applyWebhookOutcome }));
    connected = await startConnectedSandbox(
      ctx().handle.db,
      { sql: ctx().handle.sql, preset: 'demo', seed: 1, webhookRetryScheduleMs: [10] },
      { webhook: { secret, handle: (request) => webhookRoute(request, undefined) } },
    );
    ({ sandbox, fixtures, client, deviceId, apiKey } = connected);
  }, 120_000);

  afterAll(() => connected.stop());

  /** A resident, a resource they may book and a free slot there a day or more ahead. */
  async function freeSlot() {
    const { db } = ctx().handle;
    const resources = await readResources(db, deviceId);
    const schedules = await readTimeSchedules(db, deviceId);
    const from = Date.now() + DAY;
    const to = Date.now() + 20 * DAY;
    for (const resident of fixtures.residents.filter((r) => r.deviceId === deviceId)) {
      for (const resource of resources.filter((r) => resident.resourceIds.includes(r.id))) {
        const schedule = schedules.find((s) => s.id === resource.timeScheduleId);
        if (!schedule) continue;
        const booked = await readReservations(db, deviceId, { from: new Date(from), to: new Date(to), resourceId: resource.id });
        if (booked.some((r) => r.ownerId === resident.userGroupId || r.userId === resident.userId)) continue;
        const slot = expandRange(schedule.schedule, from, to, 'UTC').find(
          (s) => !booked.some((r) => Date.parse(r.startTime) < s.endMs && Date.parse(r.endTime) > s.startMs),
        );
        if (slot) return { resident, resource, slot };
      }
    }
    throw new Error('no bookable slot in the demo data');
  }

  const scrape = async () => {
    const response = await scrapeRoute({ token: TOKEN, db: () => Promise.resolve(ctx().handle.db) })(get(`Bearer ${TOKEN}`), undefined);
    expect(response.status).toBe(200);
    return parse(await response.text());
  };

  it('counts the booking upstream, times its API request by route, and the mirror and webhook behind it', async () => {
    const { resident, resource, slot } = await freeSlot();
    // The registry is the process's: the other database target's run counted too, so compare.
    const before = await scrape();
    const deps: ReservationDeps = { db: ctx().handle.db, client, apiKeyFor: () => Promise.resolve(apiKey), bus };
    // The booking as its API route runs it: through withErrors, at a path with the system's id in it.
    const bookingRoute = withErrors(async () => {
      const answer = await requestBooking(deps, {
        requester: { id: randomUUID(), name: 'Metrics Test' },
        system: { deviceId, name: 'Test system', timeZone: 'Europe/Stockholm' },
        idempotencyKey: `test-${randomUUID()}`,
        input: { deviceId, resourceId: resource.id, residentUserId: resident.userId, startTime: slot.startTime, endTime: slot.endTime },
      });
      return Response.json(answer, { status: 'request' in answer ? 202 : answer.status });
    });
    const booked = await bookingRoute(new Request('http://portal.test/api/reservations', { method: 'POST' }), undefined);
    expect(booked.status).toBe(202);
    await sandbox.drain();
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);

    expect(family(after, 'portal_upstream_requests_total').type).toBe('COUNTER');
    const create = { operation: 'POST /v1/reservations', outcome: 'success' };
    expect(delta('portal_upstream_requests_total', create)).toBe(1);
    expect(delta('portal_upstream_request_duration_seconds_count', create)).toBe(1);
    // The token endpoint is an upstream exchange too.
    expect(family(after, 'portal_upstream_requests_total').metrics.some((m) => m.labels?.operation?.includes('token') && m.labels.outcome === 'success')).toBe(true);

    expect(family(after, 'portal_http_request_duration_seconds').type).toBe('HISTOGRAM');
    const booking = { route: '/api/reservations', method: 'POST', status: '202' };
    expect(delta('portal_http_request_duration_seconds_count', booking)).toBe(1);
    expect(delta('portal_http_request_duration_seconds_bucket', { ...booking, le: '+Inf' })).toBe(1);
    // The webhook the sandbox delivered went through withErrors as well.
    expect(delta('portal_http_request_duration_seconds_count', { route: '/api/webhooks', method: 'POST', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(delta('portal_webhook_lag_seconds_count', { event_type: 'reservationResult' })).toBeGreaterThanOrEqual(1);

    expect(valueOf(after, 'portal_mirror_refresh_duration_seconds_count', { result: 'refreshed' })).toBeGreaterThanOrEqual(1);
    const age = valueOf(after, 'portal_mirror_data_age_seconds', { system: deviceId });
    expect(age).toBeGreaterThan(0);
    expect(age).toBeLessThan(300);

    const writes = withLabels(family(after, 'portal_upstream_circuit_state'), { lane: 'writes' }).filter((m) => m.labels?.upstream?.startsWith('http://sandbox.test'));
    expect(writes.map((m) => Number(m.value))).toEqual([0]);
    expect(family(after, 'portal_sse_clients').type).toBe('GAUGE');
  });
});
