import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { chooseResident, DEMO, expect, PORT, sandboxFixtures, test, weekView } from './utils';

/**
 * Issue 30: the portal opened at any address of its own — not only PORTAL_URL's localhost — books
 * and cancels; a request from another origin is still refused, naming it (decision 016). The
 * server runs with PORTAL_URL=http://localhost:PORT (scripts/e2e-server.sh).
 */


/** Weeks looked at for a resident's future bookings: the demo books up to its 28-day horizon, so five ISO weeks cover it. */
const HORIZON_WEEKS = 5;

/** A resident of the manager's first system with no future booking on one of their rooms (up to the horizon), and a week with free slots. */
async function pickScenario(request: APIRequestContext, skip: number) {
  const fixtures = await sandboxFixtures();
  const deviceIds = fixtures.approvals[0]?.deviceIds ?? [];
  const candidates = fixtures.residents.filter((r) => deviceIds.includes(r.deviceId) && /^[A-Za-z0-9]+$/.test(r.apartmentId));
  // From two thirds in, then the first two thirds backwards: on some days every resident from there
  // on already holds a booking on their rooms within the horizon (the demo's history is generated
  // relative to today). The two tests of this file book for different residents (skip).
  const start = Math.floor((candidates.length * 2) / 3) + skip;
  for (const resident of [...candidates.slice(start), ...candidates.slice(0, start).reverse()]) {
    for (const resourceId of resident.resourceIds) {
      const now = await weekView(request, resident.deviceId, resourceId);
      const next = await weekView(request, resident.deviceId, resourceId, now.nav.next);
      // The quota counts every future booking of the room, not only this week's and the next.
      const weeks = [now, next];
      while (weeks.length < HORIZON_WEEKS) weeks.push(await weekView(request, resident.deviceId, resourceId, weeks.at(-1)!.nav.next));
      const held = weeks.flatMap((w) => w.slots).filter((s) => !s.isPast && s.state !== 'free' && s.ownerLabel?.apartment === resident.apartmentId).length;
      if (held === 0 && next.slots.filter((s) => s.bookable).length >= 2) return { resident, resourceId, week: next.week.key };
    }
  }
  throw new Error('no resident without bookings in the demo data');
}

const freeSlots = (page: Page) => page.getByRole('region').getByRole('button', { name: /, free$/ });
const slotAt = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, `) });

async function signInAt(browser: Browser, base: string) {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  // Through the form, as a person would at this address.
  await page.goto('/sign-in');
  await page.getByLabel('E-mail').fill(DEMO.manager.email);
  await page.getByLabel('Password').fill(DEMO.manager.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // Signing in checks a bcrypt hash; on a busy machine that and the first page take a while.
  await expect(page).not.toHaveURL(/\/sign-in/, { timeout: 120_000 });
  expect(new URL(page.url()).origin).toBe(base);
  return { context, page };
}

const hosts = [{ host: '127.0.0.1', skip: 0 }, { host: 'localhost', skip: 1 }];
for (const { host, skip } of hosts) {
  test(`opened at http://${host}:PORT, a manager books a slot and cancels it`, async ({ browser }) => {
    test.setTimeout(180_000);
    const base = `http://${host}:${PORT}`;
    const { context, page } = await signInAt(browser, base);
    try {
      const { resident, resourceId, week } = await pickScenario(page.request, skip);
      await page.goto(`/systems/${resident.deviceId}/resources/${resourceId}?week=${week}`, { timeout: 120_000 });
      const name = ((await freeSlots(page).first().getAttribute('aria-label')) ?? '').replace(/, free$/, '');
      await slotAt(page, name).click();
      const dialog = page.getByRole('dialog');
      await chooseResident(dialog, 'Resident', resident);
      await dialog.getByRole('button', { name: 'Book', exact: true }).click();
      // Generous for a dev server on a busy machine (the same spec runs there by hand).
      await expect(dialog).toBeHidden({ timeout: 30_000 });
      await expect(page.getByText('Cross-site')).toHaveCount(0);
      await expect(slotAt(page, name)).toHaveAccessibleName(`${name}, booked by apartment ${resident.apartmentId}`, { timeout: 30_000 });

      await slotAt(page, name).click();
      await dialog.getByRole('button', { name: 'Cancel booking' }).click();
      await dialog.getByRole('button', { name: 'Yes, cancel the booking' }).click();
      await expect(dialog).toBeHidden({ timeout: 30_000 });
      await expect(slotAt(page, name)).toHaveAccessibleName(`${name}, free`, { timeout: 30_000 });
    } finally {
      await context.close();
    }
  });
}

test('a request from another origin is refused at any address, and the answer names that origin and PORTAL_URL', async ({ browser }) => {
  test.setTimeout(180_000);
  const base = `http://127.0.0.1:${PORT}`;
  const { context } = await signInAt(browser, base);
  try {
    for (const origin of ['https://evil.example', `http://127.0.0.1:${PORT + 1}`]) {
      const api = await context.request.post('/api/reservations', {
        headers: { origin, 'idempotency-key': `e2e-forged-${Date.now()}` },
        data: { deviceId: 'x', resourceId: 'x', residentUserId: 'x', startTime: '2030-01-01T08:00:00Z', endTime: '2030-01-01T09:00:00Z' },
      });
      expect(api.status()).toBe(403);
      expect(((await api.json()) as { error: { message: string } }).error.message).toBe(
        `Refused a request from ${origin}: that is not this portal's address. PORTAL_URL names the portal's public address; set it if the portal is reached under another one.`,
      );
    }
    // Pages (server actions) go through proxy.ts: the same refusal, as text.
    const page = await context.request.post('/residents', { headers: { origin: 'https://evil.example' }, form: { q: '1' } });
    expect(page.status()).toBe(403);
    expect(await page.text()).toContain('Refused a request from https://evil.example');
    // The browser's own fetch from the page is the portal's own.
    const own = await context.request.post('/api/reservations', { headers: { origin: base, 'idempotency-key': `e2e-own-${Date.now()}` }, data: {} });
    expect(own.status()).not.toBe(403);
  } finally {
    await context.close();
  }
});
