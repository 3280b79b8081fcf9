import 'server-only';
import { openStreamEnders, trackOpenStream, type StreamEndReason, type StreamOwner } from './open-streams';
import { ALL_USERS } from '@/lib/auth/access-notices';
import type { EventBus } from './bus-types';
import type { PortalEvent } from './types';

export const HEARTBEAT_MS = 15_000;
/** Backstop: an open stream re-reads its user's access this often even without a notice. */
export const ACCESS_RECHECK_MS = 30_000;
const BACKLOG_BATCH = 500;

export type { StreamEndReason };

/** What re-reading a viewer's access found: the stream ends, or now carries these systems. */
export type AccessCheck = { ended: Exclude<StreamEndReason, 'restart' | 'superseded'> } | { deviceIds: readonly string[] | 'all' };

export interface StreamAccess {
  /** The viewer: access notices naming this user (or ALL_USERS) make the stream re-check. */
  userId: string;
  /** Re-reads the viewer's session version and visible systems from the database. */
  check: () => Promise<AccessCheck>;
  /** The periodic backstop (default ACCESS_RECHECK_MS). */
  recheckMs?: number;
}

export interface EventStreamOptions {
  bus: EventBus;
  /** Systems this viewer may see; 'all' for admins. */
  deviceIds: readonly string[] | 'all';
  /** The last id the client saw (Last-Event-ID); undefined for a fresh connection. */
  lastEventId?: number;
  loadAfter: (afterId: number, deviceIds: readonly string[] | 'all', limit: number) => Promise<PortalEvent[]>;
  latestId: () => Promise<number>;
  heartbeatMs?: number;
  signal?: AbortSignal;
  /** Follow the viewer's access: end on a revoked session, drop or add systems as they change. */
  access?: StreamAccess;
  /** The viewer's user and session, for the caps on open streams (open-streams.ts). */
  owner?: StreamOwner;
  /** Only the events this also accepts go out (a display's rooms); all visible ones without it. */
  select?: (event: PortalEvent) => boolean;
  /** The frame an event goes out as; its full SSE frame (formatSseEvent) without it. */
  frame?: (event: PortalEvent) => Uint8Array;
  /** Called once when the stream ends, however it ends (a display's cap on open streams). */
  onClose?: () => void;
}

/** Response headers of an event stream: never cached or transformed, never buffered by a proxy. */
export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
} as const;

const encoder = new TextEncoder();

// The bus hands the same event object to every stream: encode its frame once, not once per client.
const encodedFrames = new WeakMap<PortalEvent, Uint8Array>();
function encodeFrame(event: PortalEvent): Uint8Array {
  let frame = encodedFrames.get(event);
  if (!frame) {
    frame = encoder.encode(formatSseEvent(event));
    encodedFrames.set(event, frame);
  }
  return frame;
}

export function formatSseEvent(event: PortalEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** The last frame of a stream the server ends (see StreamEndReason). */
export function formatEndEvent(reason: StreamEndReason): string {
  return `event: end\ndata: ${JSON.stringify({ reason })}\n\n`;
}

/** Ends every open stream of this process with `reason` (shutdown: 'restart'); returns how many. */
export function endAllEventStreams(reason: StreamEndReason): number {
  const enders = openStreamEnders();
  for (const end of enders) end(reason);
  return enders.length;
}

export { openEventStreamCount, STREAMS_PER_SESSION, STREAMS_PER_USER } from './open-streams';

/** Parses a Last-Event-ID value; anything but a non-negative integer means "none". */
export function parseLastEventId(value: string | null | undefined): number | undefined {
  if (!value || !/^\d{1,15}$/.test(value)) return undefined;
  return Number(value);
}

/**
 * An SSE stream that replays what the client missed from the table and then follows the bus,
 * each event exactly once and in id order: live events are buffered while the backlog loads
 * and only those newer than the last one sent go out.
 */
export function createEventStream(options: EventStreamOptions): ReadableStream<Uint8Array> {
  const { bus, access } = options;
  // A Set lookup per event; replaced (never queried) when the viewer's access changes.
  const toSet = (ids: readonly string[] | 'all'): ReadonlySet<string> | 'all' => (ids === 'all' ? 'all' : new Set(ids));
  let deviceIds = options.deviceIds;
  let allowed = toSet(deviceIds);
  const select = options.select;
  const visible = (e: PortalEvent) => (allowed === 'all' || allowed.has(e.deviceId)) && (!select || select(e));
  const frameOf = options.frame ?? encodeFrame;
  let cleanup = () => undefined as void;

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let lastSent = 0;
      let replaying = true;
      let closed = false;
      const buffered: PortalEvent[] = [];

      const send = (event: PortalEvent) => {
        if (closed || event.id <= lastSent || !visible(event)) return;
        lastSent = event.id;
        controller.enqueue(frameOf(event));
      };
      const unsubscribe = bus.subscribe((event) => {
        if (!visible(event)) return;
        if (replaying) buffered.push(event);
        else send(event);
      });
      const heartbeat = setInterval(() => {
        if (!closed) controller.enqueue(encoder.encode(': heartbeat\n\n'));
      }, options.heartbeatMs ?? HEARTBEAT_MS);
      let stopAccess = () => undefined as void;
      const end = (reason: StreamEndReason) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(formatEndEvent(reason)));
        } catch {
          // the client is gone already
        }
        cleanup();
      };
      const untrack = trackOpenStream(end, options.owner);
      cleanup = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        unsubscribe();
        stopAccess();
        untrack();
        options.onClose?.();
        try {
          controller.close();
        } catch {
          // already closed by the runtime
        }
      };
      if (access) stopAccess = followAccess(access, bus, end, (ids) => {
        deviceIds = ids;
        allowed = toSet(ids);
      });
      options.signal?.addEventListener('abort', cleanup, { once: true });
      if (options.signal?.aborted) return cleanup();

      // Tell the browser how long to wait before reconnecting, and open the stream at once.
      controller.enqueue(encoder.encode('retry: 2000\n\n'));
      try {
        if (options.lastEventId === undefined) {
          lastSent = await options.latestId();
        } else {
          lastSent = options.lastEventId;
          for (;;) {
            const batch = await options.loadAfter(lastSent, deviceIds, BACKLOG_BATCH);
            batch.forEach(send);
            if (batch.length < BACKLOG_BATCH || closed) break;
          }
        }
        replaying = false;
        buffered.sort((a, b) => a.id - b.id).forEach(send);
        buffered.length = 0;
      } catch {
        // The client reconnects with its Last-Event-ID and gets what it missed then.
        cleanup();
      }
    },
    cancel() {
      cleanup();
    },
  });
}

/**
 * Re-checks the viewer's access when a notice names them (or everyone) and every `recheckMs`:
 * one check at a time, and one more if a notice came in during it. Returns the stop function.
 */
function followAccess(
  access: StreamAccess,
  bus: EventBus,
  end: (reason: StreamEndReason) => void,
  setDeviceIds: (ids: readonly string[] | 'all') => void,
): () => void {
  let stopped = false;
  let running = false;
  let again = false;
  const recheck = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    again = false;
    access
      .check()
      .then((result) => {
        if (stopped) return;
        if ('ended' in result) end(result.ended);
        else setDeviceIds(result.deviceIds);
      })
      // The database is unreachable: keep the stream as it is; the next notice or tick tries again.
      .catch(() => undefined)
      .finally(() => {
        running = false;
        if (again) recheck();
      });
  };
  const unsubscribe = bus.subscribeAccess((userId) => {
    if (userId === access.userId || userId === ALL_USERS) recheck();
  });
  const timer = setInterval(recheck, access.recheckMs ?? ACCESS_RECHECK_MS);
  timer.unref();
  // Once at once: a change between the route's own checks and this subscription is not missed.
  recheck();
  return () => {
    stopped = true;
    clearInterval(timer);
    unsubscribe();
  };
}
