'use client';

import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useRef } from 'react';
import { queryKeys } from '@/lib/client/query-keys';
import type { PortalEvent, RequestView } from '@/lib/events/types';
import type { ResourceWeekView } from '@/lib/views/types';

type Listener = (request: RequestView) => void;
interface LiveEventsValue {
  subscribe: (listener: Listener) => () => void;
  emit: (request: RequestView) => void;
}
const LiveEventsContext = createContext<LiveEventsValue | null>(null);

function upsert(list: readonly RequestView[], request: RequestView): RequestView[] {
  const index = list.findIndex((r) => r.id === request.id);
  if (index < 0) return [request, ...list];
  const current = list[index];
  // Events can overtake each other's answers: never go back from a final state.
  if (current && (current.status === 'succeeded' || current.status === 'failed') && request.updatedAt <= current.updatedAt) return [...list];
  const next = [...list];
  next[index] = request;
  return next;
}

/**
 * Puts a request's new state into every cached view that shows it: the week views of its
 * resource (the grid overlays it) and the requests lists. A final state also refetches the week,
 * whose mirror already holds the outcome (it is written in the same transaction as the event).
 */
export function applyRequestUpdate(client: QueryClient, request: RequestView): void {
  if (request.resourceId) {
    const key = queryKeys.resourceWeeks(request.deviceId, request.resourceId);
    client.setQueriesData<ResourceWeekView>({ queryKey: key }, (old) => (old ? { ...old, requests: upsert(old.requests, request) } : old));
    if (request.status === 'succeeded' || request.status === 'failed') void client.invalidateQueries({ queryKey: key });
  }
  for (const deviceId of [request.deviceId, null]) {
    client.setQueryData<{ requests: RequestView[] }>(queryKeys.requests(deviceId), (old) => (old ? { requests: upsert(old.requests, request) } : old));
  }
}

/**
 * One EventSource per tab for the whole signed-in portal. It starts after `lastEventId` (the newest
 * event when the page was rendered, so nothing between render and connect is lost); on reconnects
 * the browser sends Last-Event-ID itself and the server replays the gap.
 */
export function LiveEvents({ lastEventId, children }: { lastEventId: number; children: ReactNode }) {
  const client = useQueryClient();
  const listeners = useRef(new Set<Listener>());
  const value = useRef<LiveEventsValue>({
    subscribe: (listener) => {
      listeners.current.add(listener);
      return () => {
        listeners.current.delete(listener);
      };
    },
    emit: (request) => {
      for (const listener of listeners.current) listener(request);
    },
  });
  useEffect(() => {
    const source = new EventSource(`/api/events?lastEventId=${lastEventId}`);
    const onEvent = (message: MessageEvent<string>) => {
      let event: PortalEvent;
      try {
        event = JSON.parse(message.data) as PortalEvent;
      } catch {
        return;
      }
      applyRequestUpdate(client, event.data);
      value.current.emit(event.data);
    };
    source.addEventListener('request.updated', onEvent);
    return () => {
      source.removeEventListener('request.updated', onEvent);
      source.close();
    };
    // One connection per mount; lastEventId only matters for the first connect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client]);
  return <LiveEventsContext.Provider value={value.current}>{children}</LiveEventsContext.Provider>;
}

/** Calls `listener` with every request update this tab receives (live, or its own answers). */
export function useRequestUpdates(listener: Listener): void {
  const context = useContext(LiveEventsContext);
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => context?.subscribe((r) => latest.current(r)), [context]);
}

/** For a tab's own answers (the 202 of a booking): same path as a live event. */
export function useAnnounceRequest(): (request: RequestView) => void {
  const client = useQueryClient();
  const context = useContext(LiveEventsContext);
  return (request) => {
    applyRequestUpdate(client, request);
    context?.emit(request);
  };
}
