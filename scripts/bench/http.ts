// Plain HTTP helpers for the benchmark: a signed-in portal session (cookie jar), timing, percentiles.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The q-th percentile (0..100) by nearest rank. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((q / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export const round = (v: number, digits = 1) => Math.round(v * 10 ** digits) / 10 ** digits;

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

/** A browser-like client of the portal: keeps cookies, sends Origin on state-changing calls. */
export class PortalSession {
  private readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (!pair || eq < 0) continue;
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', this.cookieHeader());
    if (init.method && init.method !== 'GET') headers.set('origin', this.baseUrl);
    const response = await fetch(`${this.baseUrl}${path}`, { ...init, headers, redirect: 'manual' });
    this.keep(response);
    return response;
  }

  /** A GET of the portal with this session's cookies, timed by `timedGet` (the lean client). */
  async timed(path: string, headers: Record<string, string> = {}): Promise<TimedAnswer> {
    const answer = await timedGet(`${this.baseUrl}${path}`, { ...(this.cookies.size > 0 ? { cookie: this.cookieHeader() } : {}), ...headers });
    if (answer.status < 200 || answer.status >= 300) throw new Error(`GET ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    return answer;
  }

  async json<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await this.fetch(path, init);
    const text = await response.text();
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text) as T;
  }

  /** Signs in through next-auth's credentials callback, as the sign-in form does. */
  async signIn(email: string, password: string): Promise<void> {
    const { csrfToken } = await this.json<{ csrfToken: string }>('/api/auth/csrf');
    const response = await this.fetch('/api/auth/callback/credentials', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken, email, password, json: 'true' }).toString(),
    });
    const body = (await response.json().catch(() => ({}))) as { url?: string };
    const error = body.url ? new URL(body.url, this.baseUrl).searchParams.get('error') : 'no answer';
    if (response.status !== 200 || error) throw new Error(`sign-in failed (${response.status}, ${error ?? 'no error code'})`);
    if (![...this.cookies.keys()].some((k) => k.includes('session-token'))) throw new Error('sign-in set no session cookie');
  }
}

/**
 * A GET timed from the request to the last byte of the answer, over a keep-alive node:http
 * connection, asking for gzip as a browser does (so the server's compression is measured), the
 * body inflated after the clock stops. Node's fetch (undici) costs the caller 2–3 ms a request of
 * its own (measured against /api/health), which is no part of the portal's latency.
 */
export interface TimedAnswer {
  status: number;
  ms: number;
  /** Bytes on the wire (compressed when the server compressed). */
  wireBytes: number;
  text: string;
  headers: http.IncomingHttpHeaders;
}

const leanAgents = new Map<string, http.Agent>();

export function timedGet(url: string, headers: Record<string, string> = {}): Promise<TimedAnswer> {
  const { origin } = new URL(url);
  let agent = leanAgents.get(origin);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    leanAgents.set(origin, agent);
  }
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(url, { agent, headers: { 'accept-encoding': 'gzip', ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const ms = performance.now() - started;
        const body = Buffer.concat(chunks);
        const text = (response.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString('utf8');
        resolve({ status: response.statusCode ?? 0, ms, wireBytes: body.length, text, headers: response.headers });
      });
    });
    request.on('error', reject);
    request.end();
  });
}
