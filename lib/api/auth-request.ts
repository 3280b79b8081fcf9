import 'server-only';
import { NextRequest } from 'next/server';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { readTextCapped } from './body';

/** Next-auth's bodies are a few short fields (CSRF token, e-mail, password, callback URL). */
export const MAX_AUTH_BODY_BYTES = 16_384;

/**
 * The request next-auth is handed. Next-auth reads a POST body itself (JSON or a form) with no
 * error of its own: malformed JSON threw out of its handler, a 500 with an empty body and a stack
 * in the log (issue 47), and a field that is not text reaches code that calls string methods on
 * it. So the body is read here first — capped, parsed, and required to be what its forms send, an
 * object of text fields — and handed on unchanged; anything else is a 400 with a sentence.
 */
export async function authRequest(request: Request): Promise<NextRequest> {
  if (request.method !== 'POST' || request.body === null) return new NextRequest(request);
  const type = request.headers.get('content-type') ?? '';
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > MAX_AUTH_BODY_BYTES) {
    throw new ApiError('payload_too_large', msg('errors.bodyTooLarge', { maxBytes: MAX_AUTH_BODY_BYTES }));
  }
  const text = await readTextCapped(request, MAX_AUTH_BODY_BYTES);
  // The same test as next-auth's own (`includes`), so every body it would parse as JSON is checked.
  if (type.includes('application/json')) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ApiError('bad_request', msg('errors.bodyNotJson'));
    }
    if (!isTextFields(body)) throw new ApiError('bad_request', msg('errors.authBodyFields'));
  }
  return new NextRequest(request.url, { method: request.method, headers: request.headers, body: text });
}

function isTextFields(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && Object.values(body).every((value) => typeof value === 'string');
}
