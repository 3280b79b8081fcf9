import { describe, expect, it } from 'vitest';
import { InProcessEventBus } from '@/lib/events/bus';
import { createEventStream } from '@/lib/events/sse';
import { ServiceUnavailableError } from '@/lib/service/errors';
import { BreakerRegistry, underBreaker } from '@/lib/service/policies';
import { getMetrics, upstreamOutcomeOfStatus } from './metrics';

describe('upstreamOutcomeOfStatus', () => {
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
