import 'server-only';
import type { Database } from '@/lib/db';
import type { EventBus } from './bus-types';
import type { StreamOwner } from './open-streams';
import { createEventStream, parseLastEventId, SSE_HEADERS, type EventStreamOptions, type StreamAccess } from './sse';
import { latestEventId, loadEventsAfter } from './store';

export interface EventStreamRouteDeps {
  db: Database;
  bus: EventBus;
  /** Systems the signed-in user may see ('all' for admins). */
  deviceIds: readonly string[] | 'all';
  heartbeatMs?: number;
  /** The viewer, whose access the stream follows (sse.ts: StreamAccess). */
  access?: StreamAccess;
  /** The viewer's user and session: the caps on open streams count by them. */
  owner?: StreamOwner;
  /** A narrower stream (a display's): which events, as what frames, and what to release at its end. */
  select?: EventStreamOptions['select'];
  frame?: EventStreamOptions['frame'];
  onClose?: EventStreamOptions['onClose'];
  /** Headers besides SSE_HEADERS (a display's: no referrer, no index). */
  headers?: Record<string, string>;
}

/**
 * GET /api/events once the user is known: resumes after Last-Event-ID (the header EventSource sends
 * on reconnects, or `?lastEventId=` that a page passes on its first connect) and follows the bus.
 * The request's abort signal ends the stream and releases its listener and timer.
 */
export function eventStreamResponse(request: Request, deps: EventStreamRouteDeps): Response {
  const lastEventId =
    parseLastEventId(request.headers.get('last-event-id')) ?? parseLastEventId(new URL(request.url).searchParams.get('lastEventId'));
  const stream = createEventStream({
    bus: deps.bus,
    deviceIds: deps.deviceIds,
    lastEventId,
    signal: request.signal,
    heartbeatMs: deps.heartbeatMs,
    access: deps.access,
    owner: deps.owner,
    select: deps.select,
    frame: deps.frame,
    onClose: deps.onClose,
    loadAfter: (after, ids, limit) => loadEventsAfter(deps.db, after, ids, limit),
    latestId: () => latestEventId(deps.db),
  });
  return new Response(stream, { headers: { ...SSE_HEADERS, ...deps.headers } });
}
