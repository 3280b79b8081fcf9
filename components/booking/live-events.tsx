'use client';

import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import { queryKeys } from '@/lib/client/query-keys';
import type { PortalEvent, RequestView } from '@/lib/events/types';
import type { ResourceWeekView } from '@/lib/views/types';
import { PendingHold } from './pending-hold';

type Listener = (request: RequestView) => void;
interface LiveEventsValue {
  subscribe: (listener: Listener) => () => void;
  /** A request's new state into the caches and to the listeners, its outcome after MIN_PENDING_MS of pending on screen. */
  publish: (request: RequestView) => void;
  /** The same for this tab's own answers (pending-hold.ts: pushOwn). */
  publishOwn: (request: RequestView) => void;
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
  updateRequestLists(client, request);
}

/**
 * The Requests list's cached pages: a request a page shows is updated in place. One it does not
 * show may belong on a first page (filters decide, and only the server applies them all), so
 * first pages are refetched; older pages never gain newly made requests.
 */
function updateRequestLists(client: QueryClient, request: RequestView): void {
  for (const [key, page] of client.getQueriesData<RequestsPageData>({ queryKey: queryKeys.requestLists() })) {
    if (!page) continue;
    if (page.requests.some((r) => r.id === request.id)) {
      client.setQueryData<RequestsPageData>(key, { ...page, requests: upsert(page.requests, request) });
    } else if (isFirstPage(key)) {
      void client.invalidateQueries({ queryKey: key, exact: true });
    }
  }
}

/** What GET /api/requests answers: a page and the markers of its neighbours. */
export interface RequestsPageData {
  requests: RequestView[];
  older: string | null;
  newer: string | null;
}

function isFirstPage(key: readonly unknown[]): boolean {
  const search = typeof key[1] === 'string' ? new URLSearchParams(key[1]) : null;
  return search !== null && !search.has('before') && !search.has('after');
}

/** The wait before reconnecting after a server restart: 1–3 s, spread so tabs do not arrive at once. */
export function restartDelayMs(random: () => number = Math.random): number {
  return 1_000 + Math.floor(random() * 2_000);
}

/** The reason of the server's last frame (`event: end`, lib/events/sse.ts), or null if unreadable. */
export function parseEndReason(data: string): string | null {
  try {
    const parsed = JSON.parse(data) as { reason?: unknown };
    return typeof parsed.reason === 'string' ? parsed.reason : null;
  } catch {
    return null;
  }
}

/** What connectLiveEvents needs of an EventSource (tests pass a fake). */
export interface EventSourceLike {
  addEventListener(type: string, listener: (message: MessageEvent<string>) => void): void;
  close(): void;
}

export interface LiveConnection {
  lastEventId: number;
  onEvent: (event: PortalEvent) => void;
  /** The server ended the stream for good (signed out, account removed): it stays closed. */
  onEnded: (reason: string) => void;
  open?: (url: string) => EventSourceLike;
  /** Runs `run` after `ms`; returns a cancel function. */
  later?: (run: () => void, ms: number) => () => void;
}

/**
 * Follows /api/events from `lastEventId`: on reconnects the browser sends Last-Event-ID itself and
 * the server replays the gap. The server's `end` frame says why it closed the stream: `restart` —
 * connect again after a short jittered delay from the last event seen, losing nothing; any other
 * reason (`signed-out`, `account-removed`, `superseded` — too many streams of this session or user, a
 * reconnect would only close another tab's) — stay closed. Returns the function that disconnects.
 */
export function connectLiveEvents(options: LiveConnection): () => void {
  const open = options.open ?? ((url: string) => new EventSource(url));
  const later =
    options.later ??
    ((run: () => void, ms: number) => {
      const timer = setTimeout(run, ms);
      return () => clearTimeout(timer);
    });
  let lastSeen = String(options.lastEventId);
  let source: EventSourceLike | undefined;
  let cancelRetry = () => undefined as void;
  let stopped = false;
  const onEvent = (message: MessageEvent<string>) => {
    if (message.lastEventId) lastSeen = message.lastEventId;
    let event: PortalEvent;
    try {
      event = JSON.parse(message.data) as PortalEvent;
    } catch {
      return;
    }
    options.onEvent(event);
  };
  const onEnd = (message: MessageEvent<string>) => {
    source?.close();
    const reason = parseEndReason(message.data) ?? 'unknown';
    if (reason === 'restart') cancelRetry = later(connect, restartDelayMs());
    else options.onEnded(reason);
  };
  function connect() {
    if (stopped) return;
    source = open(`/api/events?lastEventId=${encodeURIComponent(lastSeen)}`);
    source.addEventListener('request.updated', onEvent);
    source.addEventListener('end', onEnd);
  }
  connect();
  return () => {
    stopped = true;
    cancelRetry();
    source?.close();
  };
}

/**
 * One EventSource per tab for the whole signed-in portal (connectLiveEvents). It starts after
 * `lastEventId` (the newest event when the page was rendered, so nothing between render and
 * connect is lost). When the server ends the stream because the session ended, a short message
 * says so; the next page load or request meets the sign-in page.
 */
export function LiveEvents({ lastEventId, children }: { lastEventId: number; children: ReactNode }) {
  const client = useQueryClient();
  const listeners = useRef(new Set<Listener>());
  // Why the server ended the stream for good: signed out, or superseded by newer streams.
  const [ended, setEnded] = useState<string | null>(null);
  const t = useTranslations('booking');
  // Both the stream's events and this tab's own 202s pass the hold (pending-hold.ts).
  const [hold] = useState(
    () =>
      new PendingHold((request) => {
        applyRequestUpdate(client, request);
        for (const listener of listeners.current) listener(request);
      }),
  );
  const value = useRef<LiveEventsValue>({
    subscribe: (listener) => {
      listeners.current.add(listener);
      return () => {
        listeners.current.delete(listener);
      };
    },
    publish: (request) => hold.push(request),
    publishOwn: (request) => hold.pushOwn(request),
  });
  useEffect(() => () => hold.dispose(), [hold]);
  useEffect(
    () =>
      connectLiveEvents({
        lastEventId,
        onEvent: (event) => value.current.publish(event.data),
        onEnded: (reason) => setEnded(reason),
      }),
    // One connection per mount; lastEventId only matters for the first connect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [client],
  );
  return (
    <LiveEventsContext.Provider value={value.current}>
      {ended === 'superseded' ? (
        <p role="status" className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
          {t('live.superseded')}{' '}
          <button type="button" onClick={() => window.location.reload()} className="font-medium underline">
            {t('live.reload')}
          </button>
        </p>
      ) : ended !== null ? (
        <p role="status" className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
          {t('live.signedOut')}{' '}
          <a href="/sign-in" className="font-medium underline">
            {t('live.signInAgain')}
          </a>
        </p>
      ) : null}
      {children}
    </LiveEventsContext.Provider>
  );
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
    if (context) context.publishOwn(request);
    else applyRequestUpdate(client, request);
  };
}
