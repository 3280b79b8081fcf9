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

export const MAX_BODY_BYTES = 64 * 1024;

/** Reads a request body as text, refusing more than MAX_BODY_BYTES even without Content-Length. */
export async function readText(request: Request): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new HttpProblem(413, 'Payload Too Large', `The body exceeds ${MAX_BODY_BYTES} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
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

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
