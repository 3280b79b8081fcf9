import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { isConnectionReset } from './http';

/** Node `http` adapter for a web-standard fetch handler (the standalone sandbox, and tests of it). */
export async function toRequest(req: IncomingMessage, fallbackHost: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(key, v));
    else if (value !== undefined) headers.set(key, value);
  }
  const body = chunks.length > 0 && req.method !== 'GET' && req.method !== 'HEAD' ? Buffer.concat(chunks) : undefined;
  return new Request(`http://${req.headers.host ?? fallbackHost}${req.url ?? '/'}`, { method: req.method, headers, body });
}

async function respond(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, key) => res.setHeader(key, value));
  res.end(Buffer.from(await response.arrayBuffer()));
}

export function nodeListener(handle: (request: Request) => Promise<Response>, fallbackHost = 'localhost'): RequestListener {
  return (req, res) => {
    toRequest(req, fallbackHost)
      .then((request) => handle(request))
      .then((response) => {
        // afterAccept 'reset': a real reset, the socket closes without a byte of response.
        if (isConnectionReset(response)) {
          req.socket.destroy();
          return;
        }
        return respond(res, response);
      })
      .catch(() => {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        res.statusCode = 500;
        res.end();
      });
  };
}
