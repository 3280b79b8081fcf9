import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, errorResponse, handleApiError, isApiError, readJson, withErrors } from './errors';

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

  it('maps every service error kind to its status, also when thrown by another copy of the module', async () => {
    const errors = await import('@/lib/service/errors');
    vi.resetModules();
    const other = await import('@/lib/service/errors');
    // Two copies of the module, as a bundler may make: the classes differ, the identity does not.
    expect(other.ServiceUnavailableError).not.toBe(errors.ServiceUnavailableError);
    const cases: [Error, number][] = [
      [new other.ServiceUnavailableError('down', { reason: 'timeout', retryable: true }), 503],
      [new other.ServiceUnavailableError('open', { reason: 'circuit-open', retryable: false }), 503],
      [new other.ServiceRateLimitedError(7), 429],
      [new other.ServiceValidationError({ detail: 'bad' }), 422],
      [new other.ServiceNotFoundError({ detail: 'No such approval' }), 404],
      [new other.ServiceAuthError('apiKey', 'refused'), 502],
      [new other.ServiceContractError([{ path: 'x', message: 'bad' }]), 502],
      [new other.ServiceListTooLargeError(10), 502],
    ];
    for (const [error, status] of cases) {
      const response = await withErrors(() => {
        throw error;
      })(new Request('http://portal.test/'), {});
      expect(response.status, error.name).toBe(status);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message.length).toBeGreaterThan(20);
    }
    expect(errors.isServiceErrorOf(new other.ServiceUnavailableError('x', { reason: 'network', retryable: true }), 'unavailable')).toBe(true);
  });

  it('recognises an ApiError from another copy of the module', async () => {
    vi.resetModules();
    const other = await import('./errors');
    const foreign = new other.ApiError('conflict', 'Taken.');
    expect(foreign).not.toBeInstanceOf(ApiError);
    expect(isApiError(foreign)).toBe(true);
    expect(handleApiError(foreign).status).toBe(409);
  });

  it('lists at most 20 validation issues, however many there are', async () => {
    const result = z.object({}).strict().safeParse(Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i])));
    const response = handleApiError(result.error);
    expect(response.status).toBe(422);
    expect((await response.text()).length).toBeLessThan(5_000);
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
