import { randomUUID } from 'node:crypto';
import type { APIResponse } from '@playwright/test';
import { expect, firstSystem, test } from './utils';

const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** A header as the client got it: one value, or several joined (which a duplicate would show). */
const header = (response: APIResponse, name: string) => response.headersArray().filter((h) => h.name.toLowerCase() === name).map((h) => h.value).join(' | ');

// Issue 33, item 6: every kind of answer carries the headers it must, on the production build.
test('page, API, feed, 404, 405 and static answers carry their headers', async ({ page, request, signedInAs, baseURL }) => {
  test.setTimeout(180_000);
  const anonymous = { headers: { cookie: '' } };

  // A page: a CSP with a nonce, and the headers every response has.
  const signIn = await request.get('/sign-in', anonymous);
  expect(signIn.status()).toBe(200);
  expect(header(signIn, 'content-security-policy')).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(header(signIn, 'x-content-type-options')).toBe('nosniff');
  expect(header(signIn, 'x-frame-options')).toBe('DENY');
  expect(header(signIn, 'referrer-policy')).toBe('strict-origin-when-cross-origin');

  // An API answer: nothing may run or frame it; never stored.
  const health = await request.get('/api/health');
  expect(health.status()).toBe(200);
  expect(header(health, 'content-security-policy')).toBe(API_CSP);
  expect(header(health, 'cache-control')).toBe('no-store');
  expect(header(health, 'x-content-type-options')).toBe('nosniff');

  // A 404 of the API.
  const noApi = await request.get('/api/no-such-thing');
  expect(noApi.status()).toBe(404);
  expect(header(noApi, 'content-security-policy')).toBe(API_CSP);

  // An automatic 405 (a method the route does not export): Next answers without our code.
  const notAllowed = await request.fetch('/api/health', { method: 'PUT', headers: { origin: baseURL ?? '' } });
  expect(notAllowed.status()).toBe(405);
  expect(header(notAllowed, 'content-security-policy')).toBe(API_CSP);
  expect(header(notAllowed, 'x-content-type-options')).toBe('nosniff');

  // A calendar feed: the address is the secret — no referrer, not indexed; a 404 alike.
  await signedInAs('manager');
  const overview = await firstSystem(page);
  const created = await page.request.post('/api/feeds', {
    data: { deviceId: overview.system.deviceId, scope: 'room', resourceId: overview.resources[0]!.id },
    headers: { origin: baseURL ?? '', 'idempotency-key': randomUUID() },
  });
  expect(created.status()).toBe(201);
  const { url } = (await created.json()) as { url: string };
  const feed = await request.get(new URL(url).pathname, anonymous);
  expect(feed.status()).toBe(200);
  expect(header(feed, 'referrer-policy')).toBe('no-referrer');
  expect(header(feed, 'x-robots-tag')).toBe('noindex');
  expect(header(feed, 'x-content-type-options')).toBe('nosniff');
  const missing = await request.get(`/feeds/${'B'.repeat(43)}.ics`, anonymous);
  expect(missing.status()).toBe(404);
  expect(header(missing, 'referrer-policy')).toBe('no-referrer');
  expect(header(missing, 'x-robots-tag')).toBe('noindex');
  expect(header(missing, 'content-security-policy')).toBe(API_CSP);

  // A static file of public/: served without the page gate, with the headers of every response.
  const robots = await request.get('/robots.txt', anonymous);
  expect(robots.status()).toBe(200);
  expect(header(robots, 'x-content-type-options')).toBe('nosniff');
  expect(header(robots, 'referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(header(robots, 'x-frame-options')).toBe('DENY');
});
