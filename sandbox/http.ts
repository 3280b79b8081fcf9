import type { z } from 'zod';
import { readBodyCapped } from '@/shared/read-capped';

/** RFC 9457 problem responses and small HTTP helpers. */
export function problem(status: number, title: string, detail: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ type: 'about:blank', title, status, detail }), {
    status,
    headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store', ...headers },
  });
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

/** An error a route throws to answer with a problem response. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
  toResponse(): Response {
    return problem(this.status, this.title, this.detail, this.headers);
  }
}

export const badRequest = (detail: string) => new HttpProblem(400, 'Bad Request', detail);
export const notFound = (detail = 'No such route.') => new HttpProblem(404, 'Not Found', detail);

/** A 400 detail listing a body's validation issues: `path: message; ...`. */
export function issues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.map(String).join('.') || 'body'}: ${i.message}`).join('; ');
}

export const MAX_BODY_BYTES = 64 * 1024;

/** Reads a request body as text, refusing more than MAX_BODY_BYTES even without Content-Length. */
export async function readText(request: Request): Promise<string> {
  const text = await readBodyCapped(request.body, MAX_BODY_BYTES);
  if (text === null) throw new HttpProblem(413, 'Payload Too Large', `The body exceeds ${MAX_BODY_BYTES} bytes.`);
  return text;
}

export async function readJsonBody(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new HttpProblem(415, 'Unsupported Media Type', 'The body must be application/json.');
  }
  const text = await readText(request);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest('The body is not valid JSON.');
  }
}

/** 400 unless `value` (a decoded path segment or query value named `name`) is free of control characters and short. */
export const MAX_VALUE_LENGTH = 256;
export function checkValue(name: string, value: string): string {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    // PostgreSQL refuses NUL in text, and no real id holds a control character.
    if (code < 0x20 || code === 0x7f) throw badRequest(`${name} must not contain control characters.`);
  }
  if (value.length > MAX_VALUE_LENGTH) throw badRequest(`${name} is longer than ${MAX_VALUE_LENGTH} characters.`);
  return value;
}

const STATUS_TITLES: Record<number, string> = { 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };
export const statusTitle = (status: number) => STATUS_TITLES[status] ?? 'Server Error';

// Marks responses whose connection must break (afterAccept 'reset'). A WeakSet, not a header,
// so nothing of it can leak onto the wire; server.ts asks isConnectionReset() before writing.
const resets = new WeakSet<Response>();

/** A 2xx whose body stream errors before its first byte: an in-process client sees a broken body. */
export function connectionReset(status: number): Response {
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.error(new TypeError('The connection was reset (sandbox afterAccept fault).'));
    },
  });
  const response = new Response(body, { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
  resets.add(response);
  return response;
}

export const isConnectionReset = (response: Response) => resets.has(response);

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
