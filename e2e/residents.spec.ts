import { randomUUID } from 'node:crypto';
import { apartmentNumber } from '@/lib/i18n/format';
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { BASE_URL, expect, firstSystem, sampleResidents, sandboxFixtures, test, type SandboxResident } from './utils';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const combobox = (page: Page) => page.getByRole('combobox', { name: 'Find a resident' });
const listbox = (page: Page) => page.getByRole('listbox', { name: /^Residents found/ });

test('search as you type: "anna" lists residents grouped by apartment; a click opens the apartment', async ({ page, signedInAs }) => {
  await signedInAs('manager');
  await page.goto('/residents');
  await expect(page.getByRole('heading', { level: 1, name: 'Residents' })).toBeVisible();
  await combobox(page).fill('anna');
  // The first search may wait for a system's first load.
  await expect(listbox(page)).toBeVisible({ timeout: 20_000 });
  await expect(combobox(page)).toHaveAttribute('aria-expanded', 'true');
  const groups = listbox(page).getByRole('group');
  await expect(groups.first()).toHaveAccessibleName(/^(Apartment .+|No apartment), .+/);
  await expect(groups.first().getByRole('option').first()).toHaveAccessibleName(/anna/i);
  await expect(page.getByRole('status').filter({ hasText: /\d+ residents? in \d+ apartments?/ })).toBeAttached();
  await expectNoSeriousA11yViolations(page, 'the residents page with the listbox open');

  await groups.first().getByRole('option').first().click();
  await expect(page).toHaveURL(new RegExp(`/systems/${UUID}/apartments/${UUID}$`));
});

test('keyboard only: Tab to the combobox, type, ArrowDown, Enter opens the apartment; Escape closes', async ({ page, signedInAs }) => {
  const { oddApartment } = await sampleResidents();
  await signedInAs('manager');
  await page.goto('/residents');
  await expect(page.getByRole('heading', { level: 1, name: 'Residents' })).toBeVisible();
  for (let i = 0; i < 30 && !(await combobox(page).evaluate((el) => el === document.activeElement)); i += 1) await page.keyboard.press('Tab');
  await expect(combobox(page)).toBeFocused();
  // Lower case and without spaces or slashes: still the apartment.
  await page.keyboard.type(oddApartment.apartmentId.toLowerCase().replace(/[ /]/g, ''));
  await expect(listbox(page)).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press('Escape');
  await expect(combobox(page)).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('ArrowDown');
  await expect(combobox(page)).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('ArrowDown');
  const active = await combobox(page).getAttribute('aria-activedescendant');
  expect(active).toBeTruthy();
  await expect(page.locator(`[id="${active}"]`)).toHaveAttribute('aria-selected', 'true');
  // The best match comes first: the apartment typed.
  await expect(listbox(page).getByRole('group').first()).toHaveAccessibleName(new RegExp(`^Apartment ${apartmentNumber(oddApartment.apartmentId).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, `));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/systems/${oddApartment.deviceId}/apartments/${oddApartment.userGroupId}$`));
});

test('the server renders the apartments of ?q= as cards; the page fits 375 px', async ({ page, signedInAs }) => {
  const { withPlus } = await sampleResidents();
  await signedInAs('manager');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/residents?q=${encodeURIComponent(withPlus.email)}`);
  await expect(combobox(page)).toHaveValue(withPlus.email);
  const card = page.getByRole('list', { name: 'Apartments found' }).getByRole('listitem', { name: new RegExp(`^Apartment ${apartmentNumber(withPlus.apartmentId).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, `) });
  await expect(card).toHaveCount(1, { timeout: 20_000 });
  await expect(card.getByText(withPlus.name)).toBeVisible();
  await expect(card.getByRole('link')).toHaveAttribute('href', `/systems/${withPlus.deviceId}/apartments/${withPlus.userGroupId}`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await combobox(page).fill('pers');
  await expect(listbox(page)).toBeVisible({ timeout: 20_000 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoSeriousA11yViolations(page, 'the residents page at 375 px with the listbox open');
});

test('the API: any text up to 254 characters answers 200, control characters and longer ones 400, no session 401; other systems stay hidden', async ({ page, signedInAs, request }) => {
  const { withPlus, other } = await sampleResidents();
  await signedInAs('manager');
  const get = (q: string) => page.request.get(`/api/residents?q=${encodeURIComponent(q)}`);

  for (const q of ['', '   ', '%_\'";--', 'x'.repeat(254)]) {
    const response = await get(q);
    expect(response.status(), q).toBe(200);
  }
  expect(await (await get('  ')).json()).toEqual({ apartments: [], truncated: false });
  expect((await page.request.get('/api/residents')).status()).toBe(200);
  for (const q of ['x'.repeat(255), 'anna\u0000', 'anna\nperson']) {
    const response = await get(q);
    expect(response.status(), JSON.stringify(q)).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/^The search (may be at most 254 characters|must not contain control characters)/);
  }
  const ok = await get(withPlus.email.toUpperCase());
  expect(ok.status()).toBe(200);
  expect(ok.headers()['cache-control']).toBe('no-store');
  const body = (await ok.json()) as { apartments: { deviceId: string; groupId: string | null; residents: { userId: string }[] }[]; truncated: boolean };
  expect(body.apartments.flatMap((a) => a.residents.map((r) => r.userId))).toContain(withPlus.userId);
  expect((await request.get('/api/residents?q=anna')).status()).toBe(401);

  // A resident of a system the manager does not manage is never returned, by any key.
  for (const q of [other.email, other.name, other.apartmentId, other.referenceId, other.name.split(' ')[1]!]) {
    const found = (await (await get(q)).json()) as typeof body;
    expect(found.apartments.map((a) => a.deviceId), q).not.toContain(other.deviceId);
    expect(found.apartments.flatMap((a) => a.residents.map((r) => r.userId)), q).not.toContain(other.userId);
  }
  // Nor when the search is narrowed to that system.
  const narrowed = (await (await page.request.get(`/api/residents?q=${encodeURIComponent(other.name)}&deviceId=${other.deviceId}`)).json()) as typeof body;
  expect(narrowed.apartments).toEqual([]);
});

test('without JavaScript, the search is a plain GET form with server-rendered results', async ({ browser, page, signedInAs }) => {
  const { oddApartment } = await sampleResidents();
  await signedInAs('manager');
  const context = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
  try {
    const plain = await context.newPage();
    await plain.goto('/residents');
    await combobox(plain).fill(oddApartment.referenceId.slice(-6));
    await combobox(plain).press('Enter');
    await expect(plain).toHaveURL(new RegExp(`/residents\\?q=${oddApartment.referenceId.slice(-6)}$`));
    const cards = plain.getByRole('list', { name: 'Apartments found' }).getByRole('listitem');
    await expect(cards.first().getByRole('link')).toHaveAttribute('href', `/systems/${oddApartment.deviceId}/apartments/${oddApartment.userGroupId}`);
  } finally {
    await context.close();
  }
});

// Issue 30 item 4 (decision 018): the text typed while the menu's navigation is still on its way
// used to be replaced when the new page arrived, and Search then submitted "?q=".
test('the search keeps what is typed during a navigation: menu "Residents" on ?q=4001, type 5001, Search', async ({ page, signedInAs }) => {
  await signedInAs('manager');
  await page.goto('/residents?q=4001');
  await expect(combobox(page)).toHaveValue('4001');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Residents' }).click();
  // At once: no waiting for the navigation to finish.
  await combobox(page).fill('5001');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/residents\?q=5001$/);
  await expect(combobox(page)).toHaveValue('5001');
  await expect(page.getByRole('heading', { level: 2 })).toContainText('5001', { timeout: 20_000 });
  // And the other order: the URL changes when nothing was typed — the box follows it.
  // The menu's /residents is in the history only when it arrived before Search was pressed.
  await page.goBack();
  await expect(page).toHaveURL(/\/residents(\?q=4001)?$/);
  if (!page.url().endsWith('?q=4001')) await page.goBack();
  await expect(page).toHaveURL(/\/residents\?q=4001$/);
  await expect(combobox(page)).toHaveValue('4001');
});

test('a search result offers its apartment\'s next free slot: Book on the card, the outcome told there', async ({ page, signedInAs }) => {
  test.setTimeout(180_000);
  await signedInAs('manager');
  const { system } = await firstSystem(page);
  const fixtures = await sandboxFixtures();
  const residents = fixtures.residents.filter((r) => r.deviceId === system.deviceId && r.resourceIds.length > 0 && /\d/.test(r.apartmentId));
  const groups = [...new Map(residents.map((r) => [r.userGroupId, r])).values()].reverse();
  type Slot = { resourceName: string; startMs: number; startLabel: string; endLabel: string; startTime: string };
  let chosen: { resident: SandboxResident; slot: Slot; timeZone: string } | undefined;
  for (const resident of groups.slice(0, 20)) {
    const next = (await (await page.request.get(`/api/systems/${system.deviceId}/apartments/${resident.userGroupId}/next-free?count=1`)).json()) as { slots: Slot[]; timeZone: string };
    const slot = next.slots[0];
    if (slot) {
      chosen = { resident, slot, timeZone: next.timeZone };
      break;
    }
  }
  if (!chosen) throw new Error('no apartment with a next free slot in the demo data');
  const { resident, slot, timeZone } = chosen;
  const apartment = `Apartment ${apartmentNumber(resident.apartmentId)}`;

  await page.goto(`/residents?q=${encodeURIComponent(resident.apartmentId)}`);
  const card = page.getByRole('list', { name: 'Apartments found' }).getByRole('listitem', { name: `${apartment}, ${system.name}` });
  await expect(card).toHaveCount(1, { timeout: 20_000 });
  const offer = card.getByRole('group', { name: `Next free slot for ${apartment}` });
  const day = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone }).format(slot.startMs);
  await expect(offer.getByText('Next free slot:')).toBeVisible({ timeout: 20_000 });
  await expect(offer.getByText(`${day}, ${slot.startLabel}–${slot.endLabel}`)).toBeVisible();
  await offer.getByRole('button', { name: `Book ${day} ${slot.startLabel}–${slot.endLabel} in ${slot.resourceName} for ${apartment}` }).click();
  const made = offer.getByRole('list', { name: 'Bookings made here' });
  // Pending first, on screen long enough to be read (the sandbox answers within milliseconds), then the outcome.
  await expect(made.getByText(/^Booking .*: (sending…|sent — waiting for the service's answer…)$/)).toBeVisible();
  await expect(made.getByText(/^Booking .*: booked\.$/)).toBeVisible({ timeout: 30_000 });
  // The booking is the apartment's: its page lists it; cancel it again through the API.
  const view = (await (await page.request.get(`/api/systems/${system.deviceId}/apartments/${resident.userGroupId}`)).json()) as { upcoming: { reservationId: string; startTime: string }[] };
  const booked = view.upcoming.find((b) => Date.parse(b.startTime) === slot.startMs);
  expect(booked, 'the booking is among the apartment\'s upcoming ones').toBeDefined();
  const cancel = await page.request.delete(`/api/reservations/${booked?.reservationId ?? ''}?deviceId=${system.deviceId}`, { headers: { 'Idempotency-Key': randomUUID(), origin: BASE_URL } });
  expect(cancel.status(), await cancel.text()).toBe(202);
});
