import 'server-only';
import { displayNotice } from '@/lib/auth/access-notices';
import { ApiError } from '@/lib/errors/api-error';
import type { EventBus } from '@/lib/events/bus-types';
import { eventStreamResponse } from '@/lib/events/stream-route';
import type { PortalEvent } from '@/lib/events/types';
import { msg } from '@/lib/i18n/message';
import { createNonce } from '@/lib/security/headers';
import { singleton } from '@/lib/singleton';
import { displayOfToken, type ActiveDisplay } from './displays';
import { displayHeaders, displayPageVersion, openDisplay, translatorFor, type DisplayDeps } from './serve';

/**
 * Open streams allowed at once: per display *from one address* (a screen, a spare, one being set
 * up behind one router) and per address over all displays (a building's screens behind one
 * router). Beyond, a new stream is refused (429): its screen keeps asking every 15 s and tries the
 * stream again later. No cap counts one display's streams over all addresses: then whoever has a
 * display's address could hold all of its places from elsewhere and push the real screen onto
 * polling (issue 47); a cap per address leaves every address its own places (decision 030).
 */
export const DISPLAY_STREAM_CAPS = { perDisplayAndAddress: 3, perAddress: 12 } as const;

/**
 * Backstop of the stream's token check: a revoke or rotate announces itself (displays.ts sends an
 * access notice, so the stream ends within a second); this catches one the notice missed.
 */
export const DISPLAY_RECHECK_MS = 15_000;

/** Seconds a refused stream is told to wait. */
const CAP_RETRY_S = 30;

export interface DisplayStreamCaps {
  /** Holds a place for a stream of this display from this address: the release, or null when full. */
  acquire(displayId: string, address: string): (() => void) | null;
  /** Open streams now: displays and addresses with one open, and streams (tests, and the steady-memory check). */
  open(): { displays: number; addresses: number; streams: number };
}

/** Counts in this process's memory, like the rate limits: each instance of a scaled-out portal caps its own. */
export function createDisplayStreamCaps(caps: { perDisplayAndAddress: number; perAddress: number } = DISPLAY_STREAM_CAPS): DisplayStreamCaps {
  const byPair = new Map<string, number>();
  const byDisplay = new Map<string, number>();
  const byAddress = new Map<string, number>();
  let streams = 0;
  const add = (map: Map<string, number>, key: string, delta: number) => {
    const next = (map.get(key) ?? 0) + delta;
    // Keys go with their last stream: a day of screens coming and going leaves nothing behind.
    if (next <= 0) map.delete(key);
    else map.set(key, next);
  };
  return {
    acquire(displayId, address) {
      const pair = JSON.stringify([displayId, address]);
      if ((byPair.get(pair) ?? 0) >= caps.perDisplayAndAddress || (byAddress.get(address) ?? 0) >= caps.perAddress) return null;
      add(byPair, pair, 1);
      add(byDisplay, displayId, 1);
      add(byAddress, address, 1);
      streams += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        add(byPair, pair, -1);
        add(byDisplay, displayId, -1);
        add(byAddress, address, -1);
        streams -= 1;
      };
    },
    open: () => ({ displays: byDisplay.size, addresses: byAddress.size, streams }),
  };
}

export function portalDisplayStreamCaps(): DisplayStreamCaps {
  return singleton('display-stream-caps', () => createDisplayStreamCaps());
}

export interface DisplayStreamDeps extends DisplayDeps {
  bus: EventBus;
  caps: DisplayStreamCaps;
  heartbeatMs?: number;
  recheckMs?: number;
}

const encoder = new TextEncoder();

/**
 * What a display's stream says of an event: only that its rooms changed, and the event's id (for
 * Last-Event-ID). Never the request itself, which names the resident: the screen asks for its rooms
 * (GET /display/{token}/screen), as stripped as ever, when it hears one.
 */
export function displayEventFrame(event: PortalEvent): Uint8Array {
  return encoder.encode(`id: ${event.id}\nevent: changed\ndata: {}\n\n`);
}

/** Events of the display's rooms: all of its system's for a whole-building display. */
export function displaySelects(display: Pick<ActiveDisplay, 'resourceIds'>): ((event: PortalEvent) => boolean) | undefined {
  if (!display.resourceIds) return undefined;
  const rooms = new Set(display.resourceIds);
  return (event) => event.data.resourceId === null || rooms.has(event.data.resourceId);
}

/**
 * GET /display/{token}/events: the display's own event stream, the portal's SSE machinery
 * (lib/events/sse.ts: Last-Event-ID catch-up, heartbeat, shutdown) narrowed to the display's rooms
 * and to "changed". It ends with `event: end` / `switched-off` when the display is revoked or
 * rotated, and with `reload` when its name or language is no longer the page's (`?v=`, see
 * displayPageVersion); an access notice names it, DISPLAY_RECHECK_MS is the backstop. Counted
 * against the display's rate limits when opened, and capped per display and address, and per address (429).
 */
export async function displayEventsResponse(deps: DisplayStreamDeps, request: Request, token: string, address: string): Promise<Response> {
  const opened = await openDisplay(deps, token, address);
  if (!('display' in opened)) {
    const t = await translatorFor(opened.locale);
    const gone = opened.gone === 'revoked';
    const error = { code: gone ? 'gone' : 'not_found', message: t(gone ? 'switchedOff' : 'notFound') };
    return Response.json({ error }, { status: gone ? 410 : 404, headers: displayHeaders(createNonce()) });
  }
  const display = opened.display;
  // The page's name and language, as it was rendered (`?v=`); the display's now without it.
  const shown = new URL(request.url).searchParams.get('v') || displayPageVersion(display);
  const release = deps.caps.acquire(display.id, address);
  if (!release) throw new ApiError('rate_limited', msg('display.tooManyStreams', { seconds: CAP_RETRY_S }), { 'Retry-After': String(CAP_RETRY_S) });
  const { 'Cache-Control': _cache, ...headers } = displayHeaders(createNonce());
  return eventStreamResponse(request, {
    db: deps.db,
    bus: deps.bus,
    deviceIds: [display.deviceId],
    heartbeatMs: deps.heartbeatMs,
    access: {
      userId: displayNotice(display.id),
      check: async () => {
        const now = await displayOfToken(deps.db, token);
        if (!now || 'revoked' in now) return { ended: 'switched-off' };
        // The name and language are in the page, not in the rooms it reads: the screen loads it again.
        if (displayPageVersion(now) !== shown) return { ended: 'reload' };
        return { deviceIds: [now.deviceId] };
      },
      recheckMs: deps.recheckMs ?? DISPLAY_RECHECK_MS,
    },
    select: displaySelects(display),
    frame: displayEventFrame,
    onClose: release,
    headers,
  });
}
