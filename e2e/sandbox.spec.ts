import { DEMO, expect, sandboxFixtures, signInWithApi, test } from './utils';

test('the mounted sandbox issues a token and an API key and serves a page of reservations', async ({ request }) => {
  const fixtures = await sandboxFixtures();
  expect(fixtures.approvals.length).toBeGreaterThan(0);

  const tokenResponse = await request.post(`/sandbox${fixtures.tokenPath}`, {
    form: { grant_type: 'client_credentials', client_id: fixtures.clientId, client_secret: fixtures.clientSecret, scope: fixtures.scope },
  });
  expect(tokenResponse.status()).toBe(200);
  const { access_token: token, token_type: type } = (await tokenResponse.json()) as { access_token: string; token_type: string };
  expect(type).toBe('Bearer');

  const keyResponse = await request.get(`/sandbox/v1/apikey/generate/${fixtures.approvals[0]!.approvalId}`, { headers: { authorization: `Bearer ${token}` } });
  const { apiKey, deviceIds } = (await keyResponse.json()) as { apiKey: string; deviceIds: string[] };
  expect(deviceIds).toEqual(fixtures.approvals[0]!.deviceIds);

  const page = await request.get(`/sandbox/v1/reservations/${deviceIds[0]}/all?pageSize=100`, { headers: { authorization: `Bearer ${token}`, 'x-api-key': apiKey } });
  expect(page.status()).toBe(200);
  const body = (await page.json()) as { reservations: unknown[]; continuationToken: string | null };
  expect(body.reservations).toHaveLength(100);
  expect(body.continuationToken).toEqual(expect.any(String));

  const unauthenticated = await request.get(`/sandbox/v1/reservations/${deviceIds[0]}/all`, { headers: { 'x-api-key': apiKey } });
  expect(unauthenticated.status()).toBe(401);
  expect(unauthenticated.headers()['content-type']).toBe('application/problem+json');
});

// Issue 33, item 4: scripts without a session registered any webhook URL (booking outcomes went
// to the tester) and set faults. In demo mode a change needs a signed-in admin (decision 021).
test("demo mode's sandbox control routes: changes need an admin, webhooks only to the portal itself", async ({ request, playwright, baseURL }) => {
  const json = { 'content-type': 'application/json', origin: baseURL ?? '' };
  const listener = await request.post('/sandbox/_sandbox/webhooks', { headers: json, data: { url: 'http://127.0.0.1:9/collect', secret: 'x'.repeat(32) } });
  expect(listener.status()).toBe(401);
  expect((await request.put('/sandbox/_sandbox/faults', { headers: json, data: { latencyMs: 1 } })).status()).toBe(401);
  expect((await request.post('/sandbox/_sandbox/reset', { headers: json, data: {} })).status()).toBe(401);
  // Reads stay open.
  expect((await request.get('/sandbox/_sandbox/faults')).status()).toBe(200);

  const manager = await playwright.request.newContext({ baseURL });
  const admin = await playwright.request.newContext({ baseURL });
  try {
    expect(await signInWithApi(manager, DEMO.manager.email, DEMO.manager.password)).toBeNull();
    expect((await manager.put('/sandbox/_sandbox/faults', { headers: json, data: { latencyMs: 1 } })).status()).toBe(403);
    expect(await signInWithApi(admin, DEMO.admin.email, DEMO.admin.password)).toBeNull();
    const elsewhere = await admin.post('/sandbox/_sandbox/webhooks', { headers: json, data: { url: 'http://127.0.0.1:9/collect', secret: 'x'.repeat(32) } });
    expect(elsewhere.status()).toBe(400);
    expect(((await elsewhere.json()) as { detail: string }).detail).toContain(`${baseURL}/api/webhooks`);
    expect((await admin.put('/sandbox/_sandbox/faults', { headers: json, data: {} })).status()).toBe(200);
    expect((await admin.delete('/sandbox/_sandbox/faults', { headers: { origin: baseURL ?? '' } })).status()).toBe(204);
  } finally {
    await manager.dispose();
    await admin.dispose();
  }
});
