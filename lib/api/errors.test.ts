import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, errorResponse, handleApiError, readJson, registerErrorTranslator, withErrors } from './errors';

const jsonRequest = (body: string, type = 'application/json') =>
  new Request('http://portal.test/api/x', { method: 'POST', headers: { 'content-type': type }, body });

describe('handleApiError', () => {
  it('turns a zod error into 422 naming the field', async () => {
    const result = z.object({ userId: z.uuid() }).safeParse({ userId: 'nope' });
    const response = handleApiError(result.error);
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { message: string; issues: { path: string }[] } };
    expect(body.error.message).toContain('userId');
    expect(body.error.issues[0]?.path).toBe('userId');
  });

  it('answers an ApiError with its status and message', async () => {
    const response = handleApiError(new ApiError('forbidden', 'You may not see this system.'));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: { code: 'forbidden', message: 'You may not see this system.' } });
  });

  it('hides the detail of an unknown error behind a generic 500', async () => {
    const response = handleApiError(new Error('password=hunter2 leaked in a driver message'));
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('hunter2');
  });

  it('uses registered translators for other error families', async () => {
    class UpstreamDown extends Error {}
    registerErrorTranslator((e) => (e instanceof UpstreamDown ? new ApiError('service_unavailable', 'down') : undefined));
    const response = await withErrors(() => {
      throw new UpstreamDown();
    })(new Request('http://portal.test/'), {});
    expect(response.status).toBe(503);
  });
});

describe('errorResponse', () => {
  it('closes the connection after refusing a body for its size (the rest of it was never read)', () => {
    expect(errorResponse('payload_too_large', 'Too big.').headers.get('connection')).toBe('close');
    expect(errorResponse('bad_request', 'Bad.').headers.get('connection')).toBeNull();
  });
});

describe('withErrors headers', () => {
  const run = (handler: () => Response | Promise<Response>) => withErrors(handler)(new Request('http://portal.test/api/x'), {});

  it('gives every answer the API security headers and no-store, errors included', async () => {
    for (const response of [
      await run(() => Response.json({ ok: true })),
      await run(() => {
        throw new ApiError('not_found', 'No such thing.');
      }),
    ]) {
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('keeps a cache policy the handler chose, and copies a response whose headers are immutable', async () => {
    const stream = await run(() => new Response('data', { headers: { 'Cache-Control': 'no-cache, no-transform' } }));
    expect(stream.headers.get('cache-control')).toBe('no-cache, no-transform');
    // Response.redirect() has immutable headers.
    const redirect = await run(() => Response.redirect('http://portal.test/elsewhere', 303));
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get('location')).toBe('http://portal.test/elsewhere');
    expect(redirect.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('readJson', () => {
  it('parses JSON', async () => {
    await expect(readJson(jsonRequest('{"a":1}'))).resolves.toEqual({ a: 1 });
  });
  it('refuses a non-JSON content type with 415', async () => {
    await expect(readJson(jsonRequest('{}', 'text/plain'))).rejects.toMatchObject({ code: 'unsupported_media_type' });
  });
  it('refuses malformed JSON with 400', async () => {
    await expect(readJson(jsonRequest('{"a":'))).rejects.toMatchObject({ code: 'bad_request' });
  });
  it('refuses a body over the cap with 413 even without Content-Length', async () => {
    await expect(readJson(jsonRequest(`"${'x'.repeat(2_000)}"`), 1_000)).rejects.toMatchObject({ code: 'payload_too_large' });
  });
});
