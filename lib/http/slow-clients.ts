import 'server-only';
import http from 'node:http';
import https from 'node:https';

/** A client has this long to send a request's headers (Node's default is 60 s). */
export const HEADERS_TIMEOUT_MS = 20_000;
/** …and this long to send the whole request, body included (Node's default is 300 s). */
export const REQUEST_TIMEOUT_MS = 60_000;

const installed = Symbol.for('laundry-portal.slow-client-timeouts');

/** Lowers a server's header and request timeouts to ours (never raises one set lower). */
export function applySlowClientTimeouts(server: Pick<http.Server, 'headersTimeout' | 'requestTimeout'>): void {
  if (!(server.headersTimeout > 0) || server.headersTimeout > HEADERS_TIMEOUT_MS) server.headersTimeout = HEADERS_TIMEOUT_MS;
  if (!(server.requestTimeout > 0) || server.requestTimeout > REQUEST_TIMEOUT_MS) server.requestTimeout = REQUEST_TIMEOUT_MS;
}

/**
 * Bounds slow clients (slowloris: headers or a body trickled in a byte at a time) where the
 * portal's own server allows. `next start` creates its node:http server before instrumentation.ts
 * runs and offers no setting or hook for these timeouts, so the servers' `emit` is patched: at a
 * server's first connection its timeouts are set. Node checks open connections against the
 * server's current values (every `connectionsCheckingInterval`, 30 s by default), so a trickling
 * client is cut after 20–50 s for its headers and 60–90 s for its request. Responses are not
 * bounded by this (event streams stay open). The reverse proxy in front is the first bound
 * (docs/operations.md: nginx's client_header_timeout, client_body_timeout).
 */
export function installSlowClientTimeouts(): void {
  for (const Server of [http.Server, https.Server]) {
    const proto = Server.prototype as http.Server & { [installed]?: true };
    if (proto[installed]) continue;
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its own `this` below
    const emit = proto.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
    const done = new WeakSet<http.Server>();
    proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
      if (event === 'connection' && !done.has(this)) {
        done.add(this);
        applySlowClientTimeouts(this);
      }
      return emit.call(this, event, ...args);
    } as typeof proto.emit;
    proto[installed] = true;
  }
}
