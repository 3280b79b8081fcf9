import os from 'node:os';
import type { Page } from '@playwright/test';
import { BASE_URL, DEMO, expect, sandboxFixtures, signInWithApi, test, uniqueEmail } from './utils';

/** Submits the form and waits until it has answered (the button is enabled again, or we left). */
async function submitSignIn(page: Page, email: string, password: string) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  const button = page.getByRole('button', { name: 'Sign in', exact: true });
  await button.click();
  await expect(page.getByRole('button', { name: 'Signing in…' })).toHaveCount(0);
}

// Next's route announcer is an (empty) alert too; the form's error is the one with text.
const formError = (page: Page) => page.getByRole('alert').filter({ hasText: /\w/ });

test('anonymous visitors are sent to sign-in; a wrong password and an unknown account get the same answer', async ({ page }) => {
  await page.goto('/systems');
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fsystems/);
  await expect(page.getByRole('heading', { name: 'Sign in to the booking portal' })).toBeVisible();

  await submitSignIn(page, DEMO.admin.email, 'not-the-password');
  const wrong = await formError(page).textContent();
  await submitSignIn(page, uniqueEmail('nobody'), 'not-the-password');
  await expect(formError(page)).toHaveText(wrong ?? 'x');
  expect(wrong).toBe('The e-mail address or password is wrong.');

  await submitSignIn(page, DEMO.admin.email, DEMO.admin.password);
  await expect(page).toHaveURL(/\/systems$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Systems' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' })).toBeVisible();
});

test('without JavaScript the form posts and signs in; the password never appears in a URL', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: BASE_URL, javaScriptEnabled: false });
  const page = await context.newPage();
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  page.on('framenavigated', (f) => urls.push(f.url()));
  try {
    await page.goto('/sign-in?callbackUrl=%2Fresidents');
    await page.getByLabel('E-mail').fill(DEMO.manager.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/sign-in\?.*error=CredentialsSignin/);
    await expect(formError(page)).toHaveText('The e-mail address or password is wrong.');

    // Again from the page the failure led to: the way back to /residents is kept.
    await page.getByLabel('E-mail').fill(DEMO.manager.email);
    await page.getByLabel('Password').fill(DEMO.manager.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/residents$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Residents' })).toBeVisible();
    expect(urls.filter((u) => u.includes('password') || u.includes(DEMO.manager.password) || u.includes('not-the-password'))).toEqual([]);
  } finally {
    await context.close();
  }
});

test('with JavaScript the password never appears in a URL either', async ({ page }) => {
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  page.on('framenavigated', (f) => urls.push(f.url()));
  await page.goto('/sign-in');
  await submitSignIn(page, DEMO.manager.email, DEMO.manager.password);
  await expect(page).toHaveURL(/\/systems$/);
  expect(urls.filter((u) => u.includes('password') || u.includes(DEMO.manager.password))).toEqual([]);
});

test('the sixth rapid failure for one account is throttled', async ({ page }) => {
  const email = uniqueEmail('throttled');
  await page.goto('/sign-in');
  for (let i = 0; i < 5; i += 1) {
    await submitSignIn(page, email, `wrong-${i}`);
    await expect(formError(page)).toHaveText('The e-mail address or password is wrong.');
  }
  await submitSignIn(page, email, 'wrong-6');
  await expect(formError(page)).toHaveText(/Too many sign-in attempts/);
});

/** Sign-in attempts allowed per client address in 15 minutes (lib/auth/throttle.ts, not importable here). */
const IP_ATTEMPTS = 50;

// The per-IP limit keys on the socket's address: a client cannot escape it by writing its own
// X-Forwarded-For. This test comes from the machine's network address, not loopback, so the
// budget it spends is not the one the other tests sign in with.
test('a forged X-Forwarded-For does not escape the per-address sign-in limit', async ({ playwright }) => {
  const address = Object.values(os.networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
  test.skip(!address, 'no non-loopback IPv4 address on this machine');
  test.setTimeout(180_000);
  const origin = `http://${address}:${new URL(BASE_URL).port}`;
  const context = await playwright.request.newContext({ baseURL: origin });
  try {
    const attempt = async (forged: string) => {
      const csrf = (await (await context.get('/api/auth/csrf')).json()) as { csrfToken: string };
      const response = await context.post('/api/auth/callback/credentials', {
        form: { csrfToken: csrf.csrfToken, email: uniqueEmail('flood'), password: 'wrong-password', json: 'true' },
        headers: { origin, 'x-forwarded-for': forged, 'x-portal-peer-address': forged },
      });
      return new URL(((await response.json()) as { url: string }).url).searchParams.get('error');
    };
    let first: number | null = null;
    for (let i = 0; i < IP_ATTEMPTS + 1 && first === null; i += 1) {
      if ((await attempt(`203.0.113.${i % 250}`)) === 'Throttled') first = i;
    }
    expect(first).toBe(IP_ATTEMPTS);
    for (let i = 0; i < 5; i += 1) expect(await attempt(`198.51.100.${i}`)).toBe('Throttled');
  } finally {
    await context.dispose();
  }
});

test('the admin connects a system and assigns it; that manager sees only it and gets 403 for another', async ({ page, signedInAs, browser }) => {
  const fixtures = await sandboxFixtures();
  const approval = fixtures.approvals[1];
  const other = fixtures.approvals[0]?.deviceIds[0];
  if (!approval || !other) throw new Error('the demo preset should have two approvals');
  const deviceId = approval.deviceIds[0] ?? '';
  const systemName = fixtures.systems.find((s) => s.deviceId === deviceId)?.name ?? '';

  await signedInAs('admin');
  await page.goto('/admin/systems');
  await page.getByLabel('Approval id').fill(approval.approvalId);
  await page.getByRole('button', { name: 'Connect systems' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toHaveText(`Connected 1 system: ${systemName}.`);
  await page.goto(`/admin/systems/${deviceId}`);
  const card = page.getByRole('list', { name: 'Connected systems' }).getByRole('listitem').filter({ hasText: deviceId });
  await expect(card.getByLabel(`Time zone of ${systemName}`)).toHaveValue('Europe/Stockholm');
  // The page never carries the approval's API key or the approval id back to the browser.
  expect(await page.content()).not.toContain(approval.approvalId);

  const manager = { name: `E2E Manager ${Date.now()}`, email: uniqueEmail('e2e-manager'), password: 'e2e-password-123' };
  await page.goto('/admin/managers');
  await page.getByLabel('Name', { exact: true }).fill(manager.name);
  await page.getByLabel('E-mail').fill(manager.email);
  await page.getByLabel('Password', { exact: true }).fill(manager.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Created' })).toContainText(manager.name);
  // Given on the manager's own page, chosen by its name (issue 49: systems are given by filter).
  await page.getByRole('listitem', { name: manager.name }).getByRole('link', { name: `Systems of ${manager.name}` }).click();
  await page.getByLabel('Text in name, street or city').fill(systemName);
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByText(`1 system matches; none is ${manager.name}’s.`)).toBeVisible();
  await page.getByRole('button', { name: `Give ${manager.name} the 1 matching system` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Give 1 system' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Gave' })).toHaveText(`Gave ${manager.name} 1 more system (1 matched).`);

  // The manager, in a browser of their own.
  const context = await browser.newContext({ baseURL: BASE_URL });
  const managerPage = await context.newPage();
  await managerPage.goto('/sign-in');
  await submitSignIn(managerPage, manager.email, manager.password);
  await expect(managerPage.getByRole('heading', { level: 1, name: 'Systems' })).toBeVisible();
  const list = managerPage.getByRole('list', { name: 'Your systems' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('heading', { name: systemName })).toBeVisible();
  await expect(managerPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' })).toHaveCount(0);

  const mine = await context.request.get(`/api/systems/${deviceId}`);
  expect(mine.status()).toBe(200);
  expect(await mine.json()).toEqual({ system: { deviceId, name: systemName, timeZone: 'Europe/Stockholm', status: 'active', bookingHorizonDays: 28, scheduleBasis: 'utc', bookingQuota: 2, street: null, city: null, area: null } });
  const foreign = await context.request.get(`/api/systems/${other}`);
  expect(foreign.status()).toBe(403);
  expect(await foreign.json()).toEqual({ error: { code: 'forbidden', reason: 'noSystemAccess', message: 'You do not have access to this system.' } });
  expect((await context.request.get('/api/systems/not-a-uuid')).status()).toBe(400);
  // Admin-only changes are refused to a manager, even for their own system.
  const rename = await context.request.patch(`/api/systems/${deviceId}`, { data: { name: 'Mine now' }, headers: { origin: BASE_URL } });
  expect(rename.status()).toBe(403);
  expect((await managerPage.goto('/admin/systems'))?.status()).toBe(403);
  await context.close();
});

test('the demo manager sees the systems of the first demo approval, seeded at start', async ({ signedInAs, context }) => {
  const fixtures = await sandboxFixtures();
  const expected = [...(fixtures.approvals[0]?.deviceIds ?? [])].sort();
  await signedInAs('manager');
  await expect
    .poll(async () => ((await (await context.request.get('/api/systems')).json()) as { systems: { deviceId: string }[] }).systems.map((s) => s.deviceId).sort(), { timeout: 60_000 })
    .toEqual(expected);
});

test('a session cookie saved before sign-out is refused after it', async ({ page, context, signedInAs, browser }) => {
  await signedInAs('admin');
  const saved = await context.cookies();
  expect(saved.some((c) => c.name === 'next-auth.session-token')).toBe(true);
  await page.goto('/systems');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);

  const replay = await browser.newContext({ baseURL: BASE_URL });
  await replay.addCookies(saved);
  const response = await replay.request.get('/api/systems');
  expect(response.status()).toBe(401);
  const replayPage = await replay.newPage();
  await replayPage.goto('/systems');
  await expect(replayPage).toHaveURL(/\/sign-in/);
  await replay.close();
});

test('a state-changing request with a foreign Origin gets 403', async ({ context, signedInAs }) => {
  await signedInAs('admin');
  const foreign = await context.request.post('/api/admin/systems', { data: { approvalId: 'anything' }, headers: { origin: 'https://evil.example' } });
  expect(foreign.status()).toBe(403);
  expect(((await foreign.json()) as { error: { message: string } }).error.message).toBe(
    "Refused a request from https://evil.example: that is not this portal's address. PORTAL_URL names the portal's public address; set it if the portal is reached under another one.",
  );
  const crossSite = await context.request.patch(`/api/systems/00000000-0000-4000-8000-000000000000`, { data: { name: 'x' }, headers: { 'sec-fetch-site': 'cross-site' } });
  expect(crossSite.status()).toBe(403);
  // The same request from our own origin reaches the handler, which judges the input.
  const own = await context.request.post('/api/admin/systems', { data: { approvalId: 'a/b' }, headers: { origin: BASE_URL } });
  expect(own.status()).toBe(400);
});

test('responses carry the security headers; pages run under a nonce CSP without violations', async ({ page, request }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto('/sign-in');
  const headers = response?.headers() ?? {};
  const csp = headers['content-security-policy'] ?? '';
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeTruthy();
  expect(csp).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(await page.locator(`script[nonce]`).count()).toBeGreaterThan(0);
  // The client-side form works, so Next's scripts ran under the policy.
  await page.getByLabel('E-mail').fill('x@example.com');
  await page.getByLabel('Password').fill('y');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(formError(page)).toBeVisible();
  expect(violations).toEqual([]);

  const api = await request.get('/api/systems');
  expect(api.status()).toBe(401);
  expect(api.headers()['cache-control']).toBe('no-store');
  expect(api.headers()['x-content-type-options']).toBe('nosniff');
});

test('the shell is usable at 375 px', async ({ page, signedInAs }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signedInAs('manager');
  await page.goto('/systems');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
  // On a phone the navigation sits behind the Menu button (e2e/everyday.spec.ts).
  await page.getByRole('button', { name: 'Menu' }).click();
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['Systems', 'Residents', 'Requests']) await expect(nav.getByRole('link', { name })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Systems' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

test('signing in through the API helper works for the demo manager', async ({ request }) => {
  expect(await signInWithApi(request, DEMO.manager.email, DEMO.manager.password)).toBeNull();
  expect((await request.get('/api/systems')).status()).toBe(200);
});

test('the admin changes a system time zone; an unknown zone is refused with a message', async ({ page, context, signedInAs }) => {
  const fixtures = await sandboxFixtures();
  const deviceId = fixtures.approvals[0]?.deviceIds[0] ?? '';
  const name = fixtures.systems.find((s) => s.deviceId === deviceId)?.name ?? '';
  await signedInAs('admin');
  // The demo connection is made in the background at start.
  await expect.poll(async () => (await context.request.get(`/api/systems/${deviceId}`)).status(), { timeout: 60_000 }).toBe(200);
  await page.goto(`/admin/systems/${deviceId}`);
  const card = page.getByRole('list', { name: 'Connected systems' }).getByRole('listitem').filter({ hasText: deviceId });
  const zone = card.getByLabel(`Time zone of ${name}`);
  // The zone is picked from a list; the server still refuses one it does not know.
  const unknownZone = await context.request.patch(`/api/systems/${deviceId}`, { data: { timeZone: 'Mars/Olympus' }, headers: { origin: BASE_URL } });
  expect(unknownZone.status()).toBe(422);
  expect(((await (await context.request.get(`/api/systems/${deviceId}`)).json()) as { system: { timeZone: string } }).system.timeZone).toBe('Europe/Stockholm');

  await zone.selectOption('Europe/Helsinki');
  await card.getByRole('button', { name: `Save ${name}` }).click();
  await expect(card.getByRole('status').filter({ hasText: 'Saved' })).toHaveText(`Saved ${name} (Europe/Helsinki, bookable 28 days ahead, 2 bookings per apartment and room).`);

  // How far ahead the system's rooms can be booked: saved, then put back for the other tests.
  const horizon = card.getByLabel(`Bookable days ahead in ${name}`);
  await horizon.fill('14');
  await card.getByRole('button', { name: `Save ${name}` }).click();
  await expect(card.getByRole('status').filter({ hasText: 'Saved' })).toHaveText(`Saved ${name} (Europe/Helsinki, bookable 14 days ahead, 2 bookings per apartment and room).`);
  expect(((await (await context.request.get(`/api/systems/${deviceId}`)).json()) as { system: { bookingHorizonDays: number } }).system.bookingHorizonDays).toBe(14);
  await horizon.fill('28');
  await card.getByRole('button', { name: `Save ${name}` }).click();
  await expect(card.getByRole('status').filter({ hasText: 'Saved' })).toHaveText(`Saved ${name} (Europe/Helsinki, bookable 28 days ahead, 2 bookings per apartment and room).`);
  expect(((await (await context.request.get(`/api/systems/${deviceId}`)).json()) as { system: { timeZone: string } }).system.timeZone).toBe('Europe/Helsinki');

  // What the schedule's minutes mean: local time, saved and said; then UTC again for the other tests.
  const basis = card.getByLabel(`Schedule times of ${name} are`);
  await expect(basis).toHaveValue('utc');
  await basis.selectOption('local');
  await card.getByRole('button', { name: `Save ${name}` }).click();
  await expect(card.getByRole('status').filter({ hasText: 'Saved' })).toHaveText(`Saved ${name} (Europe/Helsinki, bookable 28 days ahead, 2 bookings per apartment and room, schedule times in local time).`);
  expect(((await (await context.request.get(`/api/systems/${deviceId}`)).json()) as { system: { scheduleBasis: string } }).system.scheduleBasis).toBe('local');
  await basis.selectOption('utc');
  await card.getByRole('button', { name: `Save ${name}` }).click();
  await expect(card.getByRole('status').filter({ hasText: 'Saved' })).toHaveText(`Saved ${name} (Europe/Helsinki, bookable 28 days ahead, 2 bookings per apartment and room).`);
});
