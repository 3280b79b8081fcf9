import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { BASE_URL, expect, firstSystem, sandboxFixtures, signInWithApi, test, uniqueEmail } from './utils';

const PASSWORD = 'e2e-password-123';

/** Creates an account through the Accounts page and answers it. */
async function createAccount(page: Page, role: 'manager' | 'admin', label = 'E2E') {
  const account = { name: `${label} ${role} ${randomUUID().slice(0, 6)}`, email: uniqueEmail(`e2e-${role}`), password: PASSWORD };
  await page.goto('/admin/managers');
  const form = page.getByRole('region', { name: 'New account' });
  await form.getByLabel('Name', { exact: true }).fill(account.name);
  await form.getByLabel('E-mail').fill(account.email);
  await form.getByLabel('Password', { exact: true }).fill(account.password);
  await form.getByLabel('Role').selectOption(role);
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(form.getByRole('status')).toHaveText(`Created ${role} ${account.name} (${account.email}).`);
  return account;
}

/** What next-auth's credentials callback answers (401 for a refused sign-in, as for a wrong password). */
async function credentialsStatus(request: APIRequestContext, email: string) {
  const csrf = (await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const response = await request.post('/api/auth/callback/credentials', {
    form: { csrfToken: csrf.csrfToken, email, password: PASSWORD, json: 'true' },
    headers: { origin: BASE_URL },
  });
  return response.status();
}

/** A signed-in browser context of its own for an account. */
async function signedInContext(browser: Browser, email: string) {
  const context = await browser.newContext({ baseURL: BASE_URL });
  expect(await signInWithApi(context.request, email, PASSWORD)).toBeNull();
  return context;
}

test('a wrong approval id is refused with a sentence, and stays in the field to be corrected', async ({ page, context, signedInAs }) => {
  await signedInAs('admin');
  await page.goto('/admin/systems');
  const field = page.getByLabel('Approval id');
  const connect = page.getByRole('region', { name: 'Connect systems' });

  await field.fill('not-a-uuid');
  await page.getByRole('button', { name: 'Connect systems' }).click();
  await expect(connect.getByRole('alert')).toHaveText(
    'The approval id must be an approval id as the system owner gave it: 32 hexadecimal digits in groups, such as 1b4e28ba-2fa1-11d2-883f-0016d3cca427. Nothing was sent to the service.',
  );
  await expect(field).toHaveValue('not-a-uuid');

  const unknown = randomUUID();
  await field.fill(unknown);
  await page.getByRole('button', { name: 'Connect systems' }).click();
  await expect(connect.getByRole('alert')).toHaveText('No approval with this id exists at the service. Check the id with the system owner; nothing was connected.');
  await expect(field).toHaveValue(unknown);

  // The same answers from the API: 400 before anything is sent, 404 for an id the service lacks.
  const headers = { origin: BASE_URL };
  const malformed = await context.request.post('/api/admin/systems', { data: { approvalId: 'not-a-uuid' }, headers });
  expect(malformed.status()).toBe(400);
  const missing = await context.request.post('/api/admin/systems', { data: { approvalId: unknown }, headers });
  expect(missing.status()).toBe(404);
  expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(/^No approval with this id exists at the service/);
});

test('the time zone is chosen from a list of IANA zones; the change is in the audit log', async ({ page, context, signedInAs }) => {
  const fixtures = await sandboxFixtures();
  const deviceId = fixtures.approvals[0]?.deviceIds[0] ?? '';
  const name = fixtures.systems.find((s) => s.deviceId === deviceId)?.name ?? '';
  await signedInAs('admin');
  await expect.poll(async () => (await context.request.get(`/api/systems/${deviceId}`)).status(), { timeout: 60_000 }).toBe(200);
  await page.goto(`/admin/systems/${deviceId}`);
  const card = page.getByRole('list', { name: 'Connected systems' }).getByRole('listitem').filter({ hasText: deviceId });
  const zone = card.getByRole('combobox', { name: `Time zone of ${name}` });
  await expect(zone).toHaveValue('Europe/Stockholm');
  await expect(zone.getByRole('option', { name: 'UTC', exact: true })).toHaveCount(1);
  await expect(zone.getByRole('option', { name: 'America/New York' })).toHaveCount(1);
  // The likely zones lead (its own, Stockholm's, the browser's), then all others, each once.
  const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  // Chromium exposes no group role inside a closed select: the optgroups by their labels.
  const likely = zone.locator('optgroup[label="Likely"] > option');
  await expect(likely).toHaveText([...new Set(['Europe/Stockholm', 'Europe/Stockholm', browserZone])].map((z) => z.replaceAll('_', ' ')));
  await expect(zone.locator('optgroup[label="All time zones"] > option[value="Europe/Stockholm"]')).toHaveCount(0);
  await expect(zone.locator('optgroup[label="All time zones"] > option[value="Europe/Helsinki"]')).toHaveCount(1);
  await expect(card.getByText('Where the laundry rooms are: the portal, its e-mails and the displays show every time in this zone.')).toBeVisible();
  // The demo's bookings fall on its schedule as the booking system sends it: said, and no "shifted?" offered.
  await expect(card.getByRole('combobox', { name: `Schedule times of ${name} are` })).toHaveValue('utc');
  await expect(card.getByText('The bookings in the booking system fall on these times: nothing to change.')).toBeVisible();
  await expect(card.getByRole('note')).toHaveCount(0);
  // Set to local time (as by mistake): the bookings no longer fall on the slots, so the card asks
  // "slots look shifted?" with the choice already on the basis they fall on; saving applies it.
  const patched = await context.request.patch(`/api/systems/${deviceId}`, { data: { scheduleBasis: 'local' }, headers: { origin: BASE_URL } });
  expect(patched.status()).toBe(200);
  await page.reload();
  await expect(card.getByRole('note', { name: 'Slots look shifted?' })).toContainText('and on them as the booking system sends them');
  await expect(card.getByRole('combobox', { name: `Schedule times of ${name} are` })).toHaveValue('utc');
  await card.getByRole('button', { name: `Save ${name}` }).click();
  await expect(card.getByRole('status').filter({ hasText: 'Saved' })).toHaveText(`Saved ${name} (Europe/Stockholm, bookable 28 days ahead, 2 bookings per apartment and room).`);
  expect(((await (await context.request.get(`/api/systems/${deviceId}`)).json()) as { system: { scheduleBasis: string } }).system.scheduleBasis).toBe('utc');
  await page.reload();
  await expect(card.getByRole('note')).toHaveCount(0);

  await zone.selectOption('Europe/Helsinki');
  await card.getByRole('button', { name: `Save ${name}` }).click();
  await expect(card.getByRole('status').filter({ hasText: 'Saved' })).toHaveText(`Saved ${name} (Europe/Helsinki, bookable 28 days ahead, 2 bookings per apartment and room).`);
  await expect(zone).toHaveValue('Europe/Helsinki');
  // The server still judges the zone: one the list cannot offer is refused with a sentence.
  const refused = await context.request.patch(`/api/systems/${deviceId}`, { data: { timeZone: 'Mars/Olympus' }, headers: { origin: BASE_URL } });
  expect(refused.status()).toBe(422);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/IANA time zone/);

  await zone.selectOption('Europe/Stockholm');
  await card.getByRole('button', { name: `Save ${name}` }).click();
  await expect(card.getByRole('status').filter({ hasText: 'Saved' })).toHaveText(`Saved ${name} (Europe/Stockholm, bookable 28 days ahead, 2 bookings per apartment and room).`);

  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows.nth(1)).toContainText(`Changed the system ${name}: time zone Europe/Helsinki → Europe/Stockholm.`);
  await expect(rows.nth(2)).toContainText(`Changed the system ${name}: time zone Europe/Stockholm → Europe/Helsinki.`);
  await expect(rows.nth(1)).toContainText('Demo Admin');
});

test('an admin states a rule group shared by two rooms and reads it back as residents would; removing it restores the quota per room (issue 35)', async ({ page, context, signedInAs }) => {
  const fixtures = await sandboxFixtures();
  const deviceId = fixtures.approvals[0]?.deviceIds[0] ?? '';
  const name = fixtures.systems.find((s) => s.deviceId === deviceId)?.name ?? '';
  await signedInAs('admin');
  await expect.poll(async () => (await context.request.get(`/api/systems/${deviceId}`)).status(), { timeout: 60_000 }).toBe(200);
  // The rooms come from the portal's copy of the system, complete once its first load has ended.
  test.setTimeout(180_000);
  await firstSystem(page);
  await page.goto(`/admin/systems/${deviceId}`);
  const card = page.getByRole('list', { name: 'Connected systems' }).getByRole('listitem').filter({ hasText: deviceId });
  await card.getByText('Booking rules', { exact: true }).click();
  const readBack = card.getByRole('list', { name: `As residents read them (${name})` });
  await expect(readBack.getByRole('listitem')).toHaveCount(1);
  await expect(readBack.getByRole('listitem').first()).toContainText(', each: 2 at a time');

  const form = card.getByRole('group', { name: 'New rule group' });
  const rooms = form.getByRole('group', { name: 'Rooms' }).getByRole('checkbox');
  const [first, second] = [(await rooms.nth(0).locator('..').innerText()).trim(), (await rooms.nth(1).locator('..').innerText()).trim()];
  await rooms.nth(0).check();
  await rooms.nth(1).check();
  await form.getByLabel('Bookings at a time').fill('2');
  await form.getByLabel('Bookings per period').fill('4');
  await form.getByLabel('Period in days').fill('7');
  await form.getByLabel('Days ahead (0 = today only)').fill('30');
  await card.getByRole('button', { name: `Add the group (${name})` }).click();
  await expect(card.getByRole('status').filter({ hasText: 'Saved the booking rules' })).toHaveText(`Saved the booking rules of ${name}.`);
  await expect(readBack.getByRole('listitem').first()).toHaveText(new RegExp(`^${first.split(' ')[0]}.* together: at most 4 times in 7 days, 2 at a time, up to 30 days ahead$`));
  await expect(readBack).toContainText(second.split(' ').at(-1) ?? second);

  // A room already in a group cannot be picked for another (the server refuses it in words too).
  const again = card.getByRole('group', { name: 'New rule group' });
  await expect(again.getByRole('group', { name: 'Rooms' }).getByRole('checkbox').nth(0)).toBeDisabled();

  await card.getByRole('button', { name: `Remove group 1 (${name})` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove group 1' }).click();
  // The group's form goes with it (and its status line): the rules read back say what happened.
  await expect(readBack.getByRole('listitem')).toHaveCount(1);
  await expect(readBack.getByRole('listitem').first()).toContainText(', each: 2 at a time');
});

test('an admin sets a system\u2019s own request budget within the owner\u2019s allowance; the change is in the audit log', async ({ page, context, signedInAs }) => {
  const fixtures = await sandboxFixtures();
  const deviceId = fixtures.approvals[0]?.deviceIds[0] ?? '';
  const name = fixtures.systems.find((s) => s.deviceId === deviceId)?.name ?? '';
  await signedInAs('admin');
  await expect.poll(async () => (await context.request.get(`/api/systems/${deviceId}`)).status(), { timeout: 60_000 }).toBe(200);
  await page.goto(`/admin/systems/${deviceId}`);
  const card = page.getByRole('list', { name: 'Connected systems' }).getByRole('listitem').filter({ hasText: deviceId });
  const budget = card.getByRole('spinbutton', { name: `Requests to the service per hour for ${name}` });
  await expect(budget).toHaveValue('');
  // Unset, the service's owner allows no more than the default: an admin may lower it.
  await expect(budget).toHaveAccessibleDescription(/Empty: the default, 2,400\. The service's owner allows up to 2,400\./);
  await budget.fill('1200');
  await card.getByRole('button', { name: `Save the request budget of ${name}` }).click();
  await expect(card.getByRole('status').filter({ hasText: 'requests per hour' })).toHaveText(`${name} may now make 1,200 requests per hour.`);
  await budget.fill('');
  await card.getByRole('button', { name: `Save the request budget of ${name}` }).click();
  await expect(card.getByRole('status').filter({ hasText: 'requests per hour' })).toHaveText(`${name} is back to the default, 2,400 requests per hour.`);

  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Audit log' }).click();
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows.nth(1)).toContainText(`Changed the system ${name}: requests to the service per hour 1200 → the default.`);
  await expect(rows.nth(2)).toContainText(`Changed the system ${name}: requests to the service per hour the default → 1200.`);
});

test('an admin disconnects a system after confirming; it is gone, and the log says who did it', async ({ page, signedInAs }) => {
  const fixtures = await sandboxFixtures();
  const approval = fixtures.approvals[1];
  if (!approval) throw new Error('the demo preset should have two approvals');
  const deviceId = approval.deviceIds[0] ?? '';
  const name = fixtures.systems.find((s) => s.deviceId === deviceId)?.name ?? '';
  await signedInAs('admin');
  await page.goto('/admin/systems');
  await page.getByLabel('Approval id').fill(approval.approvalId);
  await page.getByRole('button', { name: 'Connect systems' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toHaveText(`Connected 1 system: ${name}.`);
  // A success empties the field for the next approval.
  await expect(page.getByLabel('Approval id')).toHaveValue('');

  // Its settings, and disconnecting it, are on its own page.
  await page.goto(`/admin/systems/${deviceId}`);
  const list = page.getByRole('list', { name: 'Connected systems' });
  const card = list.getByRole('listitem').filter({ hasText: deviceId });
  await card.getByRole('button', { name: `Disconnect ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Disconnect ${name}?` });
  await expect(dialog).toContainText('Past booking requests stay in the history');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toBeVisible();

  await card.getByRole('button', { name: `Disconnect ${name}` }).click();
  await dialog.getByRole('button', { name: `Disconnect ${name}` }).click();
  await expect(list.getByRole('listitem').filter({ hasText: deviceId })).toHaveCount(0);
  expect((await page.request.get(`/api/systems/${deviceId}`)).status()).toBe(404);

  await page.goto('/admin/audit');
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows.nth(1)).toContainText(`Disconnected the system ${name}. Its API key was removed.`);
  await expect(rows.nth(2)).toContainText(`Connected the system ${name}.`);
});

test('deactivating a manager signs them out and ends their event stream; reactivating lets them in; deleting removes them', async ({ page, browser, signedInAs }) => {
  await signedInAs('admin');
  const manager = await createAccount(page, 'manager');
  const managerContext = await signedInContext(browser, manager.email);
  const managerPage = await managerContext.newPage();
  await managerPage.goto('/systems');
  await expect(managerPage.getByRole('heading', { level: 1, name: 'Systems' })).toBeVisible();
  // An open event stream, read in the manager's browser until the server ends it. Open first (its
  // first frame read), then the deactivation: on a busy machine the request could otherwise reach
  // the server after it, and be refused as signed out instead of being ended.
  await managerPage.evaluate(
    () =>
      new Promise<void>((opened) => {
        (window as unknown as { streamEnd: Promise<string> }).streamEnd = (async () => {
          const response = await fetch('/api/events', { headers: { 'last-event-id': '0' } });
          if (!response.ok || !response.body) {
            opened();
            return `not opened: ${response.status} ${await response.text()}`;
          }
          const reader = response.body.getReader();
          const decoder = new TextDecoder();
          let text = '';
          for (;;) {
            const chunk = await reader.read();
            if (chunk.done) return text;
            text += decoder.decode(chunk.value);
            opened();
            if (text.includes('event: end')) return text;
          }
        })();
      }),
  );
  const streamEnd = managerPage.evaluate(() => (window as unknown as { streamEnd: Promise<string> }).streamEnd);

  const card = page.getByRole('list', { name: 'Managers' }).getByRole('listitem', { name: manager.name });
  await card.getByRole('button', { name: `Deactivate ${manager.name}` }).click();
  await page.getByRole('dialog', { name: `Deactivate ${manager.name}?` }).getByRole('button', { name: `Deactivate ${manager.name}` }).click();
  await expect(card.getByText('Deactivated', { exact: true })).toBeVisible();
  expect(await streamEnd).toMatch(/event: end\ndata: \{"reason":"signed-out"\}/);
  await managerPage.goto('/systems');
  await expect(managerPage).toHaveURL(/\/sign-in/);
  const refused = await browser.newContext({ baseURL: BASE_URL });
  expect(await credentialsStatus(refused.request, manager.email)).toBe(401);
  await refused.close();

  await card.getByRole('button', { name: `Reactivate ${manager.name}` }).click();
  await expect(card.getByText('Deactivated', { exact: true })).toHaveCount(0);
  const again = await signedInContext(browser, manager.email);
  expect((await again.request.get('/api/systems')).status()).toBe(200);

  await card.getByRole('button', { name: `Delete ${manager.name}` }).click();
  await page.getByRole('dialog', { name: `Delete ${manager.name}?` }).getByRole('button', { name: `Delete ${manager.name}` }).click();
  await expect(page.getByRole('list', { name: 'Managers' }).getByRole('listitem', { name: manager.name })).toHaveCount(0);
  expect((await again.request.get('/api/systems')).status()).toBe(401);
  await again.close();
  await managerContext.close();

  await page.goto('/admin/audit');
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows.nth(1)).toContainText(`Deleted the manager ${manager.name} (${manager.email}).`);
  await expect(rows.nth(2)).toContainText(`Reactivated the manager ${manager.name}`);
  await expect(rows.nth(3)).toContainText(`Deactivated the manager ${manager.name}`);
  await expect(rows.nth(4)).toContainText(`Created the manager ${manager.name}`);
});

test('an admin creates another admin, who can manage accounts but not deactivate or delete themselves', async ({ page, browser, signedInAs }) => {
  await signedInAs('admin');
  // The password policy of the admin CLI, with its sentence; the typed values stay.
  await page.goto('/admin/managers');
  const form = page.getByRole('region', { name: 'New account' });
  await form.getByLabel('Name', { exact: true }).fill('Weak Admin');
  await form.getByLabel('E-mail').fill(uniqueEmail('weak'));
  await form.getByLabel('Password', { exact: true }).fill('1234567890');
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(form.getByRole('alert')).toHaveText('password is one of the most common passwords; choose another');
  await expect(form.getByLabel('Name', { exact: true })).toHaveValue('Weak Admin');

  const admin = await createAccount(page, 'admin');
  const context = await signedInContext(browser, admin.email);
  const adminPage = await context.newPage();
  await adminPage.goto('/admin/managers');
  const own = adminPage.getByRole('list', { name: 'Admins' }).getByRole('listitem', { name: admin.name });
  await expect(own.getByText('You', { exact: true })).toBeVisible();
  await expect(own.getByRole('button')).toHaveCount(0);
  await expect(adminPage.getByRole('list', { name: 'Admins' }).getByRole('listitem', { name: 'Demo Admin' }).getByRole('button', { name: 'Deactivate Demo Admin' })).toBeVisible();
  await context.close();
});

// Axe on a page with several 400-option zone selects takes a while on a busy machine.
for (const path of ['/admin/systems', '/admin/managers', '/admin/audit', '/admin/retention', '/admin/personal-data']) {
  test(`${path} passes axe in light and dark, and fits 375 px`, async ({ page, signedInAs }) => {
    test.setTimeout(180_000);
    await signedInAs('admin');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(path);
    await expectNoSeriousA11yViolations(page, path);
    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoSeriousA11yViolations(page, `${path} at 375 px`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375);
  });
}

test('the confirmation dialog passes axe', async ({ page, signedInAs }) => {
  test.setTimeout(120_000);
  await signedInAs('admin');
  await page.goto('/admin/managers');
  await page.getByRole('button', { name: 'Deactivate Demo Manager' }).click();
  await expect(page.getByRole('dialog', { name: 'Deactivate Demo Manager?' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the deactivate dialog');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
});

test('a manager opening the admin area is told it is for admins: a 403, in their language, without the admin sections (issue 48)', async ({ page, signedInAs }) => {
  await signedInAs('manager');
  for (const path of ['/admin', '/admin/managers', '/admin/audit']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByRole('heading', { level: 1, name: 'This area is for admins' })).toBeVisible();
    await expect(page.getByRole('main')).not.toContainText('Page not found');
    await expect(page.getByRole('navigation', { name: 'Admin sections' })).toHaveCount(0);
  }
  await expect(page.getByRole('link', { name: 'Back to your systems' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the admin area refused to a manager');
});

test('the admin dashboard says how far the systems are loaded, in words and as a bar, at 375 px too (issue 49)', async ({ page, signedInAs }) => {
  await signedInAs('admin');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/admin');
  const section = page.getByRole('region', { name: 'Loading the systems' });
  await expect(section).toBeVisible();
  // The demo's systems load in the background within seconds of the start: either on the way or done.
  await expect(section).toContainText(/\d+ of \d+ systems loaded, (about \d+ min left|less than a minute left|time left not known yet)\.|All \d+ systems are loaded\./);
  await expect.poll(async () => {
    await page.reload();
    return page.getByRole('region', { name: 'Loading the systems' }).textContent();
  }, { timeout: 30_000 }).toMatch(/All \d+ systems are loaded\./);
  await expectNoSeriousA11yViolations(page, 'the admin dashboard with its load progress');
});
