import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { E2E_METRICS_TOKEN, expect, test } from './utils';

/** The number of series (sample lines) of the request histogram in /api/metrics. */
async function requestSeries(request: APIRequestContext): Promise<number> {
  const response = await request.get('/api/metrics', { headers: { authorization: `Bearer ${E2E_METRICS_TOKEN}` } });
  expect(response.status()).toBe(200);
  return (await response.text()).split('\n').filter((line) => line.startsWith('portal_http_request_duration_seconds')).length;
}

const word = () => `r${randomBytes(5).toString('hex')}`;
/** Paths a scanner would try: under real routes with made-up ids, and made-up routes. */
const randomPath = (i: number) =>
  [
    `/api/systems/${word()}/reports`,
    `/api/systems/${word()}/resources/${word()}/week`,
    `/api/${word()}`,
    `/api/${word()}/${word()}`,
    `/api/feeds/${word()}`,
    `/api/systems/${word()}/closures/${word()}`,
  ][i % 6]!;

// Issue 33, item 1: 300 anonymous requests to /api/systems/r<random>/reports grew the metrics by
// ~14 series each. Labels now come from the route table; a made-up path adds no series.
test('1,000 random paths, signed in and not, do not grow the metrics', async ({ request, playwright, context, signedInAs, baseURL }) => {
  test.setTimeout(300_000);
  const methods = ['GET', 'POST', 'DELETE', 'PATCH'] as const;
  const fire = async (client: APIRequestContext, from: number, count: number) => {
    for (let i = from; i < from + count; i += 25) {
      await Promise.all(
        Array.from({ length: 25 }, (_, j) => client.fetch(randomPath(i + j), { method: methods[(i + j) % methods.length], headers: { origin: baseURL ?? '' }, maxRetries: 0 }).catch(() => undefined)),
      );
    }
  };
  // Warm up: one round of each kind of path and method, signed in and not, so each label exists.
  const anonymous = await playwright.request.newContext({ baseURL });
  await signedInAs('manager');
  const signedIn = context.request;
  await fire(anonymous, 0, 100);
  await fire(signedIn, 0, 100);
  // The scrape itself is a request to /api/metrics: its own series exists from the second on.
  await requestSeries(request);
  const before = await requestSeries(request);
  await fire(anonymous, 100, 500);
  await fire(signedIn, 100, 500);
  const after = await requestSeries(request);
  expect(after).toBe(before);
  // And no label holds text of a path.
  const text = await (await request.get('/api/metrics', { headers: { authorization: `Bearer ${E2E_METRICS_TOKEN}` } })).text();
  expect(text).not.toMatch(/route="[^"]*r[0-9a-f]{10}/);
  await anonymous.dispose();
});
