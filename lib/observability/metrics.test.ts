import { describe, expect, it } from 'vitest';
import { InProcessEventBus } from '@/lib/events/bus';
import { createEventStream } from '@/lib/events/sse';
import { ServiceUnavailableError } from '@/lib/service/errors';
import { BreakerRegistry, underBreaker } from '@/lib/service/policies';
import { getMetrics, routeTemplate, upstreamOutcomeOfStatus } from './metrics';

describe('routeTemplate', () => {
  it('turns ids, numbers, weeks and dates into :id and keeps the words', () => {
    expect(routeTemplate('/api/systems/6f1c2a9e-0d4b-4c8e-9a7f-1b2c3d4e5f60/resources/6F1C2A9E-0D4B-4C8E-9A7F-1B2C3D4E5F61/week')).toBe(
      '/api/systems/:id/resources/:id/week',
    );
    expect(routeTemplate('/api/reservations/12345')).toBe('/api/reservations/:id');
    expect(routeTemplate('/api/things/2026-W05/2026-03-01')).toBe('/api/things/:id/:id');
    expect(routeTemplate('/api/health')).toBe('/api/health');
    expect(routeTemplate('/api/x/%2e%2e/a%20b')).toBe('/api/x/:param/:param');
    expect(routeTemplate('/a/b/c/d/e/f/g/h/i/j')).toBe('/a/b/c/d/e/f/g/h');
  });

  it('gives upstream statuses their outcome', () => {
    expect([200, 202, 304, 400, 403, 404, 408, 429, 500, 503].map(upstreamOutcomeOfStatus)).toEqual([
      'success',
      'success',
      'success',
      'client_error',
      'client_error',
      'client_error',
      'server_error',
      'rate_limited',
      'server_error',
      'server_error',
    ]);
  });
});

async function gaugeValue(name: 'breakerState' | 'sseClients', labels: Record<string, string> = {}): Promise<number | undefined> {
  const { values } = await getMetrics()[name].get();
  return values.find((v) => Object.entries(labels).every(([k, value]) => (v.labels as Record<string, unknown>)[k] === value))?.value;
}

describe('portal_upstream_circuit_state', () => {
  it('follows a breaker: 0 closed, 2 open, 1 half-open, 0 closed again', async () => {
    const breaker = new BreakerRegistry().get('http://gauge.test/api#writes', { consecutiveFailures: 1, halfOpenAfterMs: 30 });
    const labels = { upstream: 'http://gauge.test/api', lane: 'writes' };
    expect(await gaugeValue('breakerState', labels)).toBe(0);
    const fault = new ServiceUnavailableError('down', { operation: 'POST /x', reason: 'status', status: 503, retryable: false });
    await expect(underBreaker(breaker, 'POST /x', () => Promise.reject(fault))).rejects.toBe(fault);
    expect(await gaugeValue('breakerState', labels)).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 60));
    let probing: number | undefined;
    await underBreaker(breaker, 'POST /x', async () => {
      probing = await gaugeValue('breakerState', labels);
      return 'ok';
    });
    expect(probing).toBe(1);
    expect(await gaugeValue('breakerState', labels)).toBe(0);
  });
});

describe('portal_sse_clients', () => {
  it('counts a stream while it is open, and not after it is cancelled or aborted', async () => {
    const options = { bus: new InProcessEventBus(), deviceIds: 'all' as const, loadAfter: () => Promise.resolve([]), latestId: () => Promise.resolve(0) };
    const before = (await gaugeValue('sseClients')) ?? 0;
    const first = createEventStream(options);
    const abort = new AbortController();
    const second = createEventStream({ ...options, signal: abort.signal });
    const reader = first.getReader();
    await reader.read(); // the opening frame: start() has run
    await second.getReader().read();
    expect(await gaugeValue('sseClients')).toBe(before + 2);
    await reader.cancel();
    abort.abort();
    expect(await gaugeValue('sseClients')).toBe(before);
  });
});
