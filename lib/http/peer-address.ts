import 'server-only';
import http from 'node:http';
import https from 'node:https';
import { PEER_HEADER } from './client-address';

const installed = Symbol.for('laundry-portal.peer-address-header');

/**
 * Copies each request's socket address into PEER_HEADER before Next sees the request, replacing a
 * header of that name the client may have sent. `next start` serves from a node:http server in
 * this process, so patching the servers' `emit` reaches every request.
 */
export function installPeerAddressHeader(): void {
  for (const Server of [http.Server, https.Server]) {
    const proto = Server.prototype as http.Server & { [installed]?: true };
    if (proto[installed]) continue;
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its own `this` below
    const emit = proto.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
    proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
      if (event === 'request') {
        const request = args[0] as http.IncomingMessage;
        request.headers[PEER_HEADER] = request.socket?.remoteAddress ?? '';
      }
      return emit.call(this, event, ...args);
    } as typeof proto.emit;
    proto[installed] = true;
  }
}
