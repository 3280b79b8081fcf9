import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '@/lib/client/query-keys';
import type { RequestView } from '@/lib/events/types';
import type { ResourceWeekView } from '@/lib/views/types';
import { applyRequestUpdate } from './live-events';

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
  it('puts a request into every cached week of its resource and into both requests lists, by the shared query keys', () => {
    const client = new QueryClient();
    const week = { requests: [] as RequestView[] } as ResourceWeekView;
    client.setQueryData(queryKeys.resourceWeek(DEVICE, RESOURCE, '2026-W48'), week);
    client.setQueryData(queryKeys.resourceWeek(DEVICE, RESOURCE, '2026-W49'), week);
    client.setQueryData(queryKeys.requests(DEVICE), { requests: [] });
    client.setQueryData(queryKeys.requests(null), { requests: [] });

    applyRequestUpdate(client, request());

    for (const key of ['2026-W48', '2026-W49']) {
      expect(client.getQueryData<ResourceWeekView>(queryKeys.resourceWeek(DEVICE, RESOURCE, key))?.requests.map((r) => r.status)).toEqual(['pending']);
    }
    expect(client.getQueryData<{ requests: RequestView[] }>(queryKeys.requests(DEVICE))?.requests).toHaveLength(1);
    expect(client.getQueryData<{ requests: RequestView[] }>(queryKeys.requests(null))?.requests).toHaveLength(1);
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
