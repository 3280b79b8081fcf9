import { randomUUID } from 'node:crypto';
import { rawRequest } from './raw-http';
import { DEMO, expect, PORT, sandboxFixtures, signInWithApi, test } from './utils';

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

/** A raw request that follows Next's 308s (repeated or trailing slashes), as a client would, up to three. */
async function following(options: Parameters<typeof rawRequest>[1]) {
  let answer = await rawRequest(PORT, options);
  for (let hops = 0; answer.status === 308 && hops < 3; hops += 1) {
    const to = new URL(String(answer.headers.location), 'http://localhost');
    answer = await rawRequest(PORT, { ...options, path: `${to.pathname}${to.search}` });
  }
  return answer;
}

// Issue 47, item 5: the guard checked the raw path and the sandbox routed on the decoded one, so
// `/sandbox/%5Fsandbox/faults` changed the demo's faults with no session (200), `…/webhooks` took any
// URL (201), `…/reset` reset the data. Every spelling that routes the same (or nearly) must meet the guard.
test("demo mode's sandbox guard decides on the decoded path: every spelling of a control route needs an admin", async ({ baseURL }) => {
  const json = { 'content-type': 'application/json', origin: baseURL ?? '' };
  const faults = async () => JSON.parse((await rawRequest(PORT, { path: '/sandbox/_sandbox/faults' })).text) as Record<string, unknown>;
  const before = await faults();
  const spellings = [
    '/sandbox/%5Fsandbox/faults',
    '/sandbox/%5fsandbox/faults',
    '/sandbox/%5F%73andbox/faults',
    '/sandbox/_sandbox%2Ffaults',
    '/sandbox/%5Fsandbox%2ffaults',
    '/sandbox//_sandbox/faults',
    '/sandbox///%5Fsandbox//faults/',
    '/sandbox/./_sandbox/faults',
    '/sandbox/%2e/_sandbox/faults',
    '/sandbox/x/../_sandbox/faults',
    '/sandbox/_SANDBOX/faults',
    '/sandbox/%5FSandbox/Faults',
  ];
  for (const path of spellings) {
    // Next answers repeated and trailing slashes itself with a 308 to the path without them; a client that follows meets the guard.
    const answer = await following({ method: 'PUT', path, headers: json, body: JSON.stringify({ latencyMs: 1234 }) });
    expect(answer.status, `PUT ${path}`).toBe(401);
    expect((JSON.parse(answer.text) as { detail: string }).detail, `PUT ${path}`).toBe('Sign in as an admin of the portal to change the demo sandbox (its control routes).');
  }
  const target = { url: 'http://127.0.0.1:9/collect', secret: `whsec_${'x'.repeat(32)}` };
  for (const [method, path, body] of [
    ['POST', '/sandbox/%5Fsandbox/webhooks', JSON.stringify(target)],
    ['POST', '/sandbox//_sandbox/webhooks', JSON.stringify(target)],
    ['DELETE', `/sandbox/%5Fsandbox/webhooks/${randomUUID()}`, undefined],
    ['POST', '/sandbox/%5Fsandbox/reset', '{}'],
    ['DELETE', '/sandbox/%5Fsandbox/faults', undefined],
  ] as const) {
    const answer = await following({ method, path, headers: json, body });
    expect(answer.status, `${method} ${path}`).toBe(401);
  }
  // Nothing changed: the faults are as they were.
  expect(await faults()).toEqual(before);
});

// Issue 47, item 6: the fixtures handed anyone the client secret, every approval id and every
// resident's e-mail; with them a script took a token and an API key. In demo mode they answer only
// an admin, without the secret; the portal reads its own credentials in-process (decision 037).
test("demo mode's fixtures answer only a signed-in admin, and never with the client secret", async ({ playwright, baseURL, request }) => {
  for (const path of ['/sandbox/_sandbox/fixtures', '/sandbox/%5Fsandbox/fixtures', '/sandbox//_sandbox/fixtures/', '/sandbox/_sandbox/Fixtures']) {
    const answer = await following({ path });
    expect(answer.status, path).toBe(401);
    expect(answer.text, path).not.toMatch(/sbx~|clientSecret|@/);
  }
  const manager = await playwright.request.newContext({ baseURL });
  const admin = await playwright.request.newContext({ baseURL });
  try {
    expect(await signInWithApi(manager, DEMO.manager.email, DEMO.manager.password)).toBeNull();
    const refused = await manager.get('/sandbox/_sandbox/fixtures');
    expect(refused.status()).toBe(403);
    expect(await refused.text()).not.toMatch(/sbx~|@/);
    expect(await signInWithApi(admin, DEMO.admin.email, DEMO.admin.password)).toBeNull();
    const shown = await admin.get('/sandbox/_sandbox/fixtures');
    expect(shown.status()).toBe(200);
    const body = await shown.text();
    expect(body).not.toContain('clientSecret');
    expect(body).not.toMatch(/sbx~/);
    expect((JSON.parse(body) as { approvals: unknown[] }).approvals.length).toBeGreaterThan(0);
  } finally {
    await manager.dispose();
    await admin.dispose();
  }
  // The portal itself still has its credentials and its systems (read in-process, not over the route).
  expect(((await (await request.get('/api/health')).json()) as { status: string }).status).toBe('ok');
});
