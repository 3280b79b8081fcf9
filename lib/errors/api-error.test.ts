import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { msg } from '@/lib/i18n/message';
import { ApiError, errorResponse, handleApiError, isApiError } from './api-error';

describe('handleApiError', () => {
  it('turns a zod error into 422 naming the field', async () => {
    const result = z.object({ userId: z.uuid() }).safeParse({ userId: 'nope' });
    const response = await handleApiError(result.error);
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { message: string; issues: { path: string }[] } };
    expect(body.error.message).toContain('userId');
    expect(body.error.issues[0]?.path).toBe('userId');
  });

  it('answers an ApiError with its status and message', async () => {
    const response = await handleApiError(new ApiError('forbidden', msg('errors.noSystemAccess')));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: { code: 'forbidden', reason: 'noSystemAccess', message: 'You do not have access to this system.' } });
  });

  it('hides the detail of an unknown error behind a generic 500', async () => {
    const response = await handleApiError(new Error('password=hunter2 leaked in a driver message'));
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
      const response = await handleApiError(error);
      expect(response.status, error.name).toBe(status);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message.length).toBeGreaterThan(20);
    }
    expect(errors.isServiceErrorOf(new other.ServiceUnavailableError('x', { reason: 'network', retryable: true }), 'unavailable')).toBe(true);
  });

  it('recognises an ApiError from another copy of the module', async () => {
    vi.resetModules();
    const other = await import('./api-error');
    const foreign = new other.ApiError('conflict', msg('errors.crossSiteNoOrigin'));
    expect(foreign).not.toBeInstanceOf(ApiError);
    expect(isApiError(foreign)).toBe(true);
    expect((await handleApiError(foreign)).status).toBe(409);
  });

  it('lists at most 20 validation issues, however many there are', async () => {
    const result = z.object({}).strict().safeParse(Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i])));
    const response = await handleApiError(result.error);
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
