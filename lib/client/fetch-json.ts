// Browser-side JSON calls to the portal's own route handlers: reads, and mutations, which always
// carry an Idempotency-Key (lib/client/idempotency.ts says which key).

import { msg, type Message } from '@/lib/i18n/message';

/**
 * A failed call to one of our route handlers, with the message the handler chose to show (already
 * in the reader's language: the portal answers in it). `code` and `reason` are the portal's own
 * (`{ error: { code, reason, message } }`, lib/errors/api-error.ts) when the portal answered; null when
 * nothing answered (status 0) or the answer was not the portal's (a proxy's error page, an
 * unreadable body). Then `text` is this module's own sentence, a Message for the component to
 * render in the reader's language (lib/client/error-text.ts); `message` is its key.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly kind = 'http' as const;
  readonly text: Message | null;
  constructor(
    readonly status: number,
    message: string | Message,
    readonly code: string | null = null,
    readonly reason: string | null = null,
  ) {
    super(typeof message === 'string' ? message : message.key);
    this.text = typeof message === 'string' ? null : message;
  }
}

const UNREACHABLE = msg('errors.unreachable');

export type MutationMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A read, or a mutation: a mutation must name its Idempotency-Key (one per user intent). */
export type FetchJsonInit =
  | { method?: 'GET'; signal?: AbortSignal }
  | { method: MutationMethod; idempotencyKey: string; body?: unknown; signal?: AbortSignal };

/**
 * The one way the browser calls the portal's JSON routes. Reads send `accept` only; mutations add
 * `Idempotency-Key` (and a JSON body when given). Any failure is an HttpError whose message can
 * be shown as it is; an aborted call rejects with the abort itself.
 */
export async function fetchJson<T>(url: string, init: FetchJsonInit = {}): Promise<T> {
  const { signal } = init;
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: string | Blob | undefined;
  if ('idempotencyKey' in init) {
    headers['Idempotency-Key'] = init.idempotencyKey;
    // A file (an upload) goes as it is, with its own type.
    if (typeof Blob !== 'undefined' && init.body instanceof Blob) {
      headers['content-type'] = init.body.type || 'application/octet-stream';
      body = init.body;
    } else if (init.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.body);
    }
  }
  let response: Response;
  try {
    response = await fetch(url, { method: init.method ?? 'GET', headers, body, signal, cache: 'no-store' });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new HttpError(0, UNREACHABLE);
  }
  if (!response.ok) {
    let message: string | Message = msg('errors.httpStatus', { status: String(response.status) });
    let code: string | null = null;
    let reason: string | null = null;
    try {
      const answer = (await response.json()) as { error?: { code?: unknown; reason?: unknown; message?: unknown } };
      if (typeof answer.error?.message === 'string' && answer.error.message !== '') message = answer.error.message;
      if (typeof answer.error?.code === 'string') code = answer.error.code;
      if (typeof answer.error?.reason === 'string') reason = answer.error.reason;
    } catch {
      // Not JSON (e.g. a proxy's error page): keep the status line.
    }
    throw new HttpError(response.status, message, code, reason);
  }
  try {
    return (await response.json()) as T;
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new HttpError(response.status, msg('errors.unreadableAnswer', { status: String(response.status) }));
  }
}

/** An answer of the portal that was not 2xx (or no answer: status 0), recognised by its `kind`. */
export function isHttpError(error: unknown): error is HttpError {
  return error instanceof Error && (error as { kind?: unknown }).kind === 'http';
}
