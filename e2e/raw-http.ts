import { request as httpRequest } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * One HTTP request with its path sent exactly as written (no client-side URL normalisation: `//`,
 * `/./` and `%5F` reach the server as typed) and, when given, from a loopback address of its own
 * (`127.0.0.2` …): Linux routes all of 127.0.0.0/8 to this machine, so each is a separate client
 * address to the portal without any trusted proxy. Streams are read for `readMs` at most.
 */
export function rawRequest(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string; localAddress?: string; readMs?: number },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        localAddress: options.localAddress,
        headers: { host: `localhost:${port}`, ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}), ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
        const timer = options.readMs === undefined ? undefined : setTimeout(() => {
          res.destroy();
          done();
        }, options.readMs);
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          clearTimeout(timer);
          done();
        });
        res.on('error', () => undefined);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** Cookies a response sets, as one Cookie header value (name=value; …), merged over `jar`. */
export function cookiesOf(answer: RawAnswer, jar = ''): string {
  const cookies = new Map(jar.split('; ').filter(Boolean).map((c) => [c.slice(0, c.indexOf('=')), c] as const));
  const set = answer.headers['set-cookie'];
  for (const line of Array.isArray(set) ? set : set ? [set] : []) {
    const pair = line.split(';')[0]!;
    cookies.set(pair.slice(0, pair.indexOf('=')), pair);
  }
  return [...cookies.values()].join('; ');
}

/**
 * Signs in through next-auth's CSRF and credentials endpoints from `localAddress`; next-auth's
 * error code (`CredentialsSignin`, `Throttled` …) or null, and the session's cookies.
 */
export async function rawSignIn(port: number, email: string, password: string, localAddress: string): Promise<{ error: string | null; cookie: string }> {
  const csrf = await rawRequest(port, { path: '/api/auth/csrf', localAddress });
  const { csrfToken } = JSON.parse(csrf.text) as { csrfToken: string };
  const jar = cookiesOf(csrf);
  const answer = await rawRequest(port, {
    method: 'POST',
    path: '/api/auth/callback/credentials',
    localAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `http://localhost:${port}`, cookie: jar },
    body: new URLSearchParams({ csrfToken, email, password, json: 'true' }).toString(),
  });
  const { url } = JSON.parse(answer.text) as { url: string };
  return { error: new URL(url).searchParams.get('error'), cookie: cookiesOf(answer, jar) };
}

/** A request held open (an event stream) from `localAddress`: its status once the headers arrive, and how to end it. */
export function openStream(port: number, path: string, localAddress: string): Promise<{ status: number; close: () => void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, localAddress, headers: { host: `localhost:${port}`, accept: 'text/event-stream' } }, (res) => {
      res.on('data', () => undefined);
      res.on('error', () => undefined);
      resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}
