import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '@/lib/client/query-keys';
import type { RequestView } from '@/lib/events/types';
import type { ResourceWeekView } from '@/lib/views/types';
import { applyRequestUpdate, connectLiveEvents, type EventSourceLike, parseEndReason, restartDelayMs } from './live-events';

const DEVICE = '00000000-0000-4000-8000-000000000001';
const RESOURCE = '00000000-0000-4000-8000-000000000002';

function request(patch: Partial<RequestView> = {}): RequestView {
  return {
    id: '00000000-0000-4000-8000-0000000000aa',
    kind: 'create',
    status: 'pending',
    deviceId: DEVICE,
    resourceId: RESOURCE,
    residentUserId: null,
    reservationId: null,
    startTime: '2026-11-26T06:00:00.000Z',
    endTime: '2026-11-26T09:00:00.000Z',
    requestedBy: 'u1',
    errorCode: null,
    errorDescription: null,
    createdAt: '2026-11-25T10:00:00.000Z',
    updatedAt: '2026-11-25T10:00:00.000Z',
    resolvedAt: null,
    ...patch,
  };
}

describe('applyRequestUpdate', () => {
  it('puts a request into every cached week of its resource, and refreshes the first pages of the requests list', () => {
    const client = new QueryClient();
    const week = { requests: [] as RequestView[] } as ResourceWeekView;
    client.setQueryData(queryKeys.resourceWeek(DEVICE, RESOURCE, '2026-W48'), week);
    client.setQueryData(queryKeys.resourceWeek(DEVICE, RESOURCE, '2026-W49'), week);
    const first = queryKeys.requests(`?deviceId=${DEVICE}`);
    const older = queryKeys.requests('?before=2026-11-20T10:00:00.000000Z_00000000-0000-4000-8000-0000000000bb');
    client.setQueryData(first, { requests: [], older: null, newer: null });
    client.setQueryData(older, { requests: [], older: null, newer: null });

    applyRequestUpdate(client, request());

    for (const key of ['2026-W48', '2026-W49']) {
      expect(client.getQueryData<ResourceWeekView>(queryKeys.resourceWeek(DEVICE, RESOURCE, key))?.requests.map((r) => r.status)).toEqual(['pending']);
    }
    // The server decides whether a new request passes a page's filters: first pages ask again.
    expect(client.getQueryState(first)?.isInvalidated).toBe(true);
    expect(client.getQueryState(older)?.isInvalidated).toBe(false);
  });

  it('updates a request a requests page shows in place, whichever page it is', () => {
    const client = new QueryClient();
    const older = queryKeys.requests('?status=pending&before=2026-11-20T10:00:00.000000Z_00000000-0000-4000-8000-0000000000bb');
    client.setQueryData(older, { requests: [request()], older: 'x', newer: 'y' });
    applyRequestUpdate(client, request({ status: 'succeeded', updatedAt: '2026-11-25T10:00:05.000Z' }));
    expect(client.getQueryData(older)).toEqual({ requests: [request({ status: 'succeeded', updatedAt: '2026-11-25T10:00:05.000Z' })], older: 'x', newer: 'y' });
  });

  it('never goes back from a final state, and a final state marks the weeks stale', () => {
    const client = new QueryClient();
    const key = queryKeys.resourceWeek(DEVICE, RESOURCE, '2026-W48');
    client.setQueryData(key, { requests: [] as RequestView[] });
    applyRequestUpdate(client, request({ status: 'succeeded', updatedAt: '2026-11-25T10:00:05.000Z' }));
    expect(client.getQueryState(key)?.isInvalidated).toBe(true);
    applyRequestUpdate(client, request({ status: 'pending', updatedAt: '2026-11-25T10:00:01.000Z' }));
    expect(client.getQueryData<ResourceWeekView>(key)?.requests.map((r) => r.status)).toEqual(['succeeded']);
  });
});

class FakeSource implements EventSourceLike {
  closed = false;
  private readonly listeners = new Map<string, (message: MessageEvent<string>) => void>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (message: MessageEvent<string>) => void) {
    this.listeners.set(type, listener);
  }
  close() {
    this.closed = true;
  }
  send(type: string, data: string, lastEventId = '') {
    this.listeners.get(type)?.({ data, lastEventId } as MessageEvent<string>);
  }
}

function connection() {
  const sources: FakeSource[] = [];
  const pending: { run: () => void; ms: number }[] = [];
  const ended: string[] = [];
  const events: number[] = [];
  const stop = connectLiveEvents({
    lastEventId: 5,
    onEvent: (e) => events.push(e.id),
    onEnded: (reason) => ended.push(reason),
    open: (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    later: (run, ms) => {
      pending.push({ run, ms });
      return () => undefined;
    },
  });
  return { sources, pending, ended, events, stop };
}

describe('the live events connection', () => {
  it('after a restart notice, reconnects once after a short jittered delay from the last event it saw', () => {
    const c = connection();
    expect(c.sources.map((s) => s.url)).toEqual(['/api/events?lastEventId=5']);
    c.sources[0]?.send('request.updated', JSON.stringify({ id: 7, data: request() }), '7');
    c.sources[0]?.send('end', '{"reason":"restart"}');
    expect(c.sources[0]?.closed).toBe(true);
    expect(c.pending).toHaveLength(1);
    expect(c.pending[0]?.ms).toBeGreaterThanOrEqual(1_000);
    expect(c.pending[0]?.ms).toBeLessThanOrEqual(3_000);
    c.pending[0]?.run();
    expect(c.sources.map((s) => s.url)).toEqual(['/api/events?lastEventId=5', '/api/events?lastEventId=7']);
    expect(c.events).toEqual([7]);
    expect(c.ended).toEqual([]);
  });

  it('after signed-out, stays closed and says why', () => {
    const c = connection();
    c.sources[0]?.send('end', '{"reason":"signed-out"}');
    expect(c.sources[0]?.closed).toBe(true);
    expect(c.pending).toHaveLength(0);
    expect(c.sources).toHaveLength(1);
    expect(c.ended).toEqual(['signed-out']);
  });

  it('reads end reasons and spreads restart delays', () => {
    expect(parseEndReason('{"reason":"account-removed"}')).toBe('account-removed');
    expect(parseEndReason('nonsense')).toBeNull();
    expect(restartDelayMs(() => 0)).toBe(1_000);
    expect(restartDelayMs(() => 0.999)).toBeLessThan(3_000);
  });
});
