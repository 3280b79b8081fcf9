import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { E2E_AUTH_SECRET, E2E_ENCRYPTION_KEY, expect, sandboxFixtures, test } from './utils';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : Promise.resolve([path.join(dir, e.name)]))));
  return nested.flat();
}

test('the client bundle holds no service secret, API key, webhook secret or portal secret', async ({ request }) => {
  const fixtures = await sandboxFixtures();
  // A real API key, issued by the sandbox for the first approval.
  const token = await request.post(`/sandbox${fixtures.tokenPath}`, {
    form: { grant_type: 'client_credentials', client_id: fixtures.clientId, client_secret: fixtures.clientSecret, scope: fixtures.scope },
  });
  expect(token.status()).toBe(200);
  const { access_token: accessToken } = (await token.json()) as { access_token: string };
  const generated = await request.get(`/sandbox/v1/apikey/generate/${fixtures.approvals[0]?.approvalId ?? ''}`, { headers: { authorization: `Bearer ${accessToken}` } });
  expect(generated.status()).toBe(200);
  const { apiKey } = (await generated.json()) as { apiKey: string };

  const secrets = { clientSecret: fixtures.clientSecret, apiKey, authSecret: E2E_AUTH_SECRET, encryptionKey: E2E_ENCRYPTION_KEY };
  const files = await filesUnder(path.join(process.cwd(), '.next', 'static'));
  expect(files.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(5);
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    for (const [name, value] of Object.entries(secrets)) {
      expect(text.includes(value), `${name} found in ${file}`).toBe(false);
    }
    // Any Standard Webhooks secret, and any key of the sandbox's format.
    expect(/whsec_[A-Za-z0-9+/=_-]{16,}/.test(text), `a webhook secret in ${file}`).toBe(false);
    expect(/sbx_[A-Za-z0-9_-]{20,}/.test(text), `an API key in ${file}`).toBe(false);
  }
});
