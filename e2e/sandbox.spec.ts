import { expect, test } from '@playwright/test';

interface Fixtures {
  tokenPath: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  approvals: { approvalId: string; deviceIds: string[] }[];
}

test('the mounted sandbox issues a token and an API key and serves a page of reservations', async ({ request }) => {
  const fixtures = (await (await request.get('/sandbox/_sandbox/fixtures')).json()) as Fixtures;
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
