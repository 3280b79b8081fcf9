import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as bare } from '@playwright/test';
import { BASE_URL, DEMO, E2E_AUTH_SECRET, E2E_ENCRYPTION_KEY, expect, PORT, test } from './utils';

// The production build, started as an operator who forgot the service settings would start it.
// These two start portals of their own (`bare`: no worker portal needed); the rest use the spec's portal.
bare('next start with no service configured refuses to start and says what to set', async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'no-config-')), PORTAL_URL: 'http://localhost:3197' };
  for (const name of Object.keys(env)) if (name.startsWith('SERVICE_') || name === 'DEMO_MODE' || name === 'DATABASE_URL' || name === 'WEBHOOK_SECRET') delete env[name];
  const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '--port', '3197'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const code = await Promise.race([
    new Promise<number | null>((resolve) => child.on('exit', resolve)),
    new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 45_000)),
  ]);
  if (code === 'still running') child.kill('SIGKILL');
  expect(code).toBe(1);
  expect(output).toContain('The portal will not start: No reservation service is configured');
  expect(output).toContain('DEMO_MODE=1');
});

// The portal on a port other than 3000, with no PORTAL_URL: the sandbox, the webhook and the demo
// connection must be addressed at the port it listens on (they were all sent to :3000).
bare('on another port without PORTAL_URL the demo systems connect and /api/health is ok', async ({ playwright }) => {
  bare.setTimeout(180_000);
  const port = PORT + 50;
  const origin = `http://localhost:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DEMO_MODE: '1',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'other-port-')),
    AUTH_SECRET: E2E_AUTH_SECRET,
    ENCRYPTION_KEY: E2E_ENCRYPTION_KEY,
  };
  for (const name of Object.keys(env)) if (['PORTAL_URL', 'NEXTAUTH_URL', 'PORT', 'DATABASE_URL', 'WEBHOOK_SECRET'].includes(name) || name.startsWith('SERVICE_')) delete env[name];
  const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '--port', String(port)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const request = await playwright.request.newContext({ baseURL: origin });
  try {
    let health: { status?: string; message?: string } = {};
    await expect
      .poll(
        async () => {
          const response = await request.get('/api/health').catch(() => null);
          health = response?.ok() ? ((await response.json()) as typeof health) : {};
          return health.status;
        },
        { timeout: 90_000, intervals: [1_000] },
      )
      .toBe('ok');

    const csrf = (await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string };
    const signIn = await request.post('/api/auth/callback/credentials', {
      form: { csrfToken: csrf.csrfToken, email: DEMO.manager.email, password: DEMO.manager.password, json: 'true' },
      headers: { origin },
    });
    expect(new URL(((await signIn.json()) as { url: string }).url).searchParams.get('error')).toBeNull();
    // The demo connection runs in the background after the start; give it its retries.
    await expect
      .poll(async () => ((await (await request.get('/api/systems')).json()) as { systems: unknown[] }).systems.length, { timeout: 60_000, intervals: [1_000] })
      .toBeGreaterThan(0);
    await expect.poll(() => output, { timeout: 30_000 }).toContain(`"url":"${origin}/api/webhooks","message":"webhook registered with the sandbox"`);
    expect(((await (await request.get('/api/health')).json()) as { status: string }).status).toBe('ok');
  } finally {
    await request.dispose();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
});

test("the sandbox's control routes refuse another site, and carry the security headers", async ({ request }) => {
  // What a cross-site form post looks like: text/plain, a foreign Origin.
  const forged = await request.post('/sandbox/_sandbox/reset', {
    headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
    data: '{"seed":2}',
  });
  expect(forged.status()).toBe(403);
  expect(((await forged.json()) as { detail: string }).detail).toBe("The sandbox's control routes take JSON from this site only.");
  const plain = await request.post('/sandbox/_sandbox/reset', { headers: { 'content-type': 'text/plain' }, data: '{"seed":2}' });
  expect(plain.status()).toBe(403);

  const fixtures = await request.get('/sandbox/_sandbox/fixtures');
  expect(fixtures.status()).toBe(200);
  expect(fixtures.headers()['content-security-policy']).toContain("default-src 'none'");
  expect(fixtures.headers()['x-content-type-options']).toBe('nosniff');
});

test('demo mode says so on the sign-in page', async ({ page }) => {
  await page.goto('/sign-in');
  await expect(page.getByRole('heading', { name: 'Demo mode' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Demo mode' })).toContainText('not a real booking system');
});

test('an unknown API path is a JSON 404 with the security headers, for every method', async ({ request }) => {
  for (const method of ['GET', 'POST', 'DELETE'] as const) {
    const response = await request.fetch('/api/no-such-thing/here', { method });
    expect(response.status()).toBe(404);
    expect(response.headers()['content-type']).toContain('application/json');
    expect(response.headers()['content-security-policy']).toContain("default-src 'none'");
    if (method !== 'DELETE') expect(((await response.json()) as { error: { message: string } }).error.message).toBe('There is no API at /api/no-such-thing/here.');
  }
});

test('a NUL in a system name is a 422 that changes nothing (it was a 500)', async ({ signedInAs, context }) => {
  await signedInAs('admin');
  const { systems } = (await (await context.request.get('/api/systems')).json()) as { systems: { deviceId: string; name: string }[] };
  const system = systems[0]!;
  const response = await context.request.patch(`/api/systems/${system.deviceId}`, { data: { name: 'Brf\u0000Eken' }, headers: { origin: BASE_URL } });
  expect(response.status()).toBe(422);
  expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/control characters/);
  const after = (await (await context.request.get(`/api/systems/${system.deviceId}`)).json()) as { system: { name: string } };
  expect(after.system.name).toBe(system.name);
});

test('the public files are served to anyone, and the portal asks not to be indexed', async ({ request, page }) => {
  const robots = await request.get('/robots.txt');
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toContain('Disallow: /');
  const icon = await request.get('/favicon.ico');
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toMatch(/icon/);
  const manifest = await request.get('/manifest.webmanifest');
  expect(((await manifest.json()) as { name: string }).name).toBe('Laundry booking portal');
  await page.goto('/sign-in');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
});

test('an unknown page is a 404 with the page security headers', async ({ signedInAs, context }) => {
  await signedInAs('manager');
  const response = await context.request.get('/no-such-page/anywhere', { maxRedirects: 0 });
  expect(response.status()).toBe(404);
  expect(response.headers()['content-security-policy']).toMatch(/script-src 'self' 'nonce-/);
});
