import 'server-only';
import { getMetrics } from '@/lib/observability/metrics';
import type { EventBus } from './bus-types';
import type { PortalEvent } from './types';

export const HEARTBEAT_MS = 15_000;
const BACKLOG_BATCH = 500;

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
  const { bus, deviceIds } = options;
  const visible = (e: PortalEvent) => deviceIds === 'all' || deviceIds.includes(e.deviceId);
  let cleanup = () => undefined as void;

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let lastSent = 0;
      let replaying = true;
      let closed = false;
      const buffered: PortalEvent[] = [];

      const send = (event: PortalEvent) => {
        if (closed || event.id <= lastSent) return;
        lastSent = event.id;
        controller.enqueue(encodeFrame(event));
      };
      const unsubscribe = bus.subscribe((event) => {
        if (!visible(event)) return;
        if (replaying) buffered.push(event);
        else send(event);
      });
      const heartbeat = setInterval(() => {
        if (!closed) controller.enqueue(encoder.encode(': heartbeat\n\n'));
      }, options.heartbeatMs ?? HEARTBEAT_MS);
      getMetrics().sseClients.inc();
      cleanup = () => {
        if (closed) return;
        closed = true;
        getMetrics().sseClients.dec();
        clearInterval(heartbeat);
        unsubscribe();
        try {
          controller.close();
        } catch {
          // already closed by the runtime
        }
      };
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
