import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError } from '@/lib/errors/api-error';
import { env } from '@/lib/env';
import { msg } from '@/lib/i18n/message';
import { measure, noteQuery } from '@/lib/observability/server-timing';
import { withErrors } from './route';

// The signed-in user's saved language, as each test sets it (none: no session).
const session = vi.hoisted(() => ({ get: (): Promise<unknown> => Promise.resolve(null) }));
vi.mock('./session', () => ({ getSession: () => session.get() }));
afterEach(() => {
  session.get = () => Promise.resolve(null);
});

describe('error answers in the caller\'s language', () => {
  const refusal = () => {
    throw new ApiError('service_unavailable', msg('errors.stillLoading'), { 'Retry-After': '5' });
  };
  const ask = (headers: Record<string, string>, handler: () => Response = refusal) =>
    withErrors(handler)(new Request('http://portal.test/api/x', { headers }), {});
  const body = async (response: Response) => ((await response.json()) as { error: { code: string; reason: string; message: string; issues?: { path: string; message: string }[] } }).error;

  it('answers Swedish to Accept-Language: sv and English to en, with the same code, reason and headers', async () => {
    const sv = await ask({ 'accept-language': 'sv-SE,sv;q=0.9,en;q=0.5' });
    const en = await ask({ 'accept-language': 'en-GB' });
    expect(await body(sv)).toEqual({ code: 'service_unavailable', reason: 'stillLoading', message: 'Systemets uppgifter läses fortfarande in. Försök igen om en stund.' });
    expect(await body(en)).toEqual({ code: 'service_unavailable', reason: 'stillLoading', message: "This system's data is still loading. Please try again in a moment." });
    expect(sv.headers.get('retry-after')).toBe('5');
    expect(en.status).toBe(503);
  });

  it('prefers the portal-locale cookie to Accept-Language, and falls back to PORTAL_DEFAULT_LOCALE (en in tests)', async () => {
    expect((await body(await ask({ cookie: 'a=1; portal-locale=sv', 'accept-language': 'en' }))).message).toMatch(/^Systemets uppgifter/);
    expect((await body(await ask({ cookie: 'portal-locale=en', 'accept-language': 'sv' }))).message).toMatch(/^This system's data/);
    expect((await body(await ask({ cookie: 'portal-locale=de' }))).message).toMatch(/^This system's data/);
    expect((await body(await ask({}))).message).toMatch(/^This system's data/);
    expect((await body(await ask({ 'accept-language': 'nb, de' }))).message).toMatch(/^This system's data/);
  });

  it('localizes zod issues and the summary, with limits, and keeps a stable reason', async () => {
    const schema = z.object({ name: z.string().max(3), userId: z.uuid(), count: z.number() }).strict();
    const fail = () => Response.json(schema.parse({ name: 'abcdef', userId: 'nope', extra: 1 }));
    const sv = await body(await ask({ 'accept-language': 'sv' }, fail));
    const en = await body(await ask({ 'accept-language': 'en' }, fail));
    expect(sv.reason).toBe('invalidInput');
    expect(en.reason).toBe('invalidInput');
    expect(sv.issues).toEqual([
      { path: 'name', message: 'får vara högst 3 tecken' },
      { path: 'userId', message: 'måste vara ett UUID' },
      { path: 'count', message: 'måste anges' },
      { path: '', message: 'okänt fält: extra' },
    ]);
    expect(en.issues?.map((i) => i.message)).toEqual(['must be at most 3 characters', 'must be a UUID', 'is required', 'unknown field: extra']);
    expect(sv.message).toBe('Ogiltiga uppgifter: name: får vara högst 3 tecken; userId: måste vara ett UUID; count: måste anges; okänt fält: extra');
    expect(en.message).toMatch(/^Invalid input: name: must be at most 3 characters; /);
  });

  it('renders custom catalogue-key messages of a schema with their params', async () => {
    const schema = z.string().refine(() => false, { message: 'validation.passwordTooShort', params: { min: 10 } });
    const sv = await body(await ask({ 'accept-language': 'sv' }, () => Response.json(schema.parse('x'))));
    expect(sv.issues?.[0]?.message).toBe('måste vara minst 10 tecken');
  });

  it('answers an unknown error with the generic sentence in the caller\'s language', async () => {
    const sv = await body(await ask({ 'accept-language': 'sv' }, () => { throw new Error('secret detail'); }));
    expect(sv).toEqual({ code: 'internal_server_error', reason: 'internal', message: 'Något gick fel hos oss. Försök igen.' });
  });

  it('never fails for the language: a session lookup that throws is skipped', async () => {
    session.get = () => Promise.reject(new Error('no request scope'));
    expect((await body(await ask({ 'accept-language': 'sv' }))).reason).toBe('stillLoading');
  });

  it('answers a signed-in client that names no language in the one its session signed in under, not the portal’s default (issue 48)', async () => {
    // PORTAL_DEFAULT_LOCALE is en in tests: a session signed in under Swedish shows the fallback is used.
    session.get = () => Promise.resolve({ id: 'u', email: 'a@b.se', name: 'A', role: 'manager', locale: null, signedInUnder: 'sv' });
    expect((await body(await ask({}))).message).toMatch(/^Systemets uppgifter/);
    // What the request itself asks for still wins.
    expect((await body(await ask({ 'accept-language': 'en' }))).message).toMatch(/^This system's data/);
  });

  it('uses the signed-in user\'s saved choice before the cookie', async () => {
    session.get = () => Promise.resolve({ id: 'u', email: 'a@b.se', name: 'A', role: 'manager', locale: 'sv' });
    expect((await body(await ask({ cookie: 'portal-locale=en', 'accept-language': 'en' }))).message).toMatch(/^Systemets uppgifter/);
  });
});

describe('withErrors headers', () => {
  const run = (handler: () => Response | Promise<Response>) => withErrors(handler)(new Request('http://portal.test/api/x'), {});

  it('gives every answer the API security headers and no-store, errors included', async () => {
    for (const response of [
      await run(() => Response.json({ ok: true })),
      await run(() => {
        throw new ApiError('not_found', msg('errors.noSuchSystem'));
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

describe('Server-Timing', () => {
  const handler = withErrors(async () => {
    await measure('session', () => new Promise((resolve) => setTimeout(resolve, 5)));
    noteQuery(1.5);
    noteQuery(0.5);
    return Response.json({ ok: true });
  });

  it('says where the time went when SERVER_TIMING is on: the handler, each measured part, the statements', async () => {
    const before = env.SERVER_TIMING;
    env.SERVER_TIMING = true;
    try {
      const value = (await handler(new Request('http://portal.test/api/x'), {})).headers.get('server-timing') ?? '';
      expect(value).toMatch(/^handler;dur=[\d.]+, session;dur=[\d.]+, db;desc="2 queries";dur=2$/);
      expect(Number(/session;dur=([\d.]+)/.exec(value)?.[1])).toBeGreaterThanOrEqual(4);
    } finally {
      env.SERVER_TIMING = before;
    }
  });

  it('adds nothing when it is off (the default), and measures nothing outside a request', async () => {
    expect((await handler(new Request('http://portal.test/api/x'), {})).headers.has('server-timing')).toBe(false);
    await expect(measure('x', () => Promise.resolve(7))).resolves.toBe(7);
  });
});
