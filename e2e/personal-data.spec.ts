import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { BASE_URL, expect, sampleResidents, sandboxControl, sandboxFixtures, test, weekView } from './utils';
import type { APIRequestContext } from '@playwright/test';

/** Nothing on the page is wider than the screen: no sideways scrolling. */
async function expectNoSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll, 'page width at 375 px').toBeLessThanOrEqual(client);
}

test('the demo admin finds a resident, reads what the portal holds at 375 px, and downloads it as a document and as JSON', async ({ page, context, signedInAs }) => {
  const { withPlus: resident } = await sampleResidents();
  await signedInAs('admin');
  // The search reads the mirrored user list: wait for the resident's system to have loaded.
  await expect
    .poll(async () => {
      const response = await page.request.get(`/api/systems/${resident.deviceId}/overview`);
      return response.status() === 200 ? ((await response.json()) as { freshness: { status: string } }).freshness.status : `status ${response.status()}`;
    }, { timeout: 90_000 })
    .toBe('ready');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/admin/personal-data');
  await expect(page.getByRole('heading', { level: 1, name: 'Personal data' })).toBeVisible();

  // An e-mail address finds one resident; the system's first load may still be on its way.
  const results = page.getByRole('region', { name: 'Residents found' });
  await expect(async () => {
    await page.getByLabel('Name, e-mail address, apartment or reference id').fill(resident.email);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(results.getByRole('listitem').filter({ hasText: resident.name })).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  const card = results.getByRole('listitem').filter({ hasText: resident.name });
  await expect(card).toContainText(resident.email);
  await expect(card).toContainText('the booking system’s user list');
  await expectNoSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page, 'the personal-data search');

  await card.getByRole('link', { name: `Show the data held about ${resident.name}` }).click();
  const selected = page.getByRole('region', { name: `Data held about ${resident.name}` });
  await expect(selected).toBeVisible();
  await expect(selected.getByRole('radio', { name: 'English' })).toBeChecked();
  await expectNoSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page, 'a resident’s personal data');

  const htmlDownload = page.waitForEvent('download');
  await selected.getByRole('button', { name: 'Download the document (HTML)' }).click();
  const html = await htmlDownload;
  expect(html.suggestedFilename()).toMatch(new RegExp(`^personal-data-\\d{4}-\\d{2}-\\d{2}-${resident.userId.slice(0, 8)}\\.html$`));
  const document = await readFile(await html.path(), 'utf8');
  expect(document).toContain('<html lang="en">');
  expect(document).toContain(`Personal data held about ${resident.name}`);
  expect(document).toContain(resident.email.replace(/&/g, '&amp;'));
  expect(document).toContain(resident.userId);
  expect(document).toContain('Held by the booking system (its owner answers for it)');

  // The same in Swedish when chosen, and as JSON with the same facts.
  await selected.getByRole('radio', { name: 'Swedish' }).check();
  const svDownload = page.waitForEvent('download');
  await selected.getByRole('button', { name: 'Download the document (HTML)' }).click();
  const sv = await readFile(await (await svDownload).path(), 'utf8');
  expect(sv).toContain('<html lang="sv">');
  expect(sv).toContain('Hålls av bokningssystemet');
  const jsonDownload = page.waitForEvent('download');
  await selected.getByRole('button', { name: 'Download as JSON' }).click();
  const json = await jsonDownload;
  expect(json.suggestedFilename()).toMatch(/\.json$/);
  const extract = JSON.parse(await readFile(await json.path(), 'utf8')) as {
    resident: { userId: string; deviceId: string; name: string; email: string };
    bookingSystem: { heldBy: string; user: { email: string } | null };
  };
  expect(extract.resident).toMatchObject({ userId: resident.userId, deviceId: resident.deviceId, name: resident.name, email: resident.email });
  expect(extract.bookingSystem).toMatchObject({ heldBy: 'booking-system', user: { email: resident.email } });

  // Each download is in the audit log, naming the resident.
  await page.goto('/admin/audit');
  await expect(page.getByRole('cell', { name: `Downloaded the personal data of ${resident.name}`, exact: false }).first()).toBeVisible();

  // Bad input is answered with a sentence and records nothing.
  const tooShort = await context.request.get('/api/admin/personal-data/residents?q=a');
  expect(tooShort.status()).toBe(400);
  expect(((await tooShort.json()) as { error: { message: string } }).error.message).toBe('Type at least 2 characters: a name, an e-mail address, an apartment or a reference id.');
  const badId = await context.request.post('/api/admin/personal-data/extract/extract.json', { form: { deviceId: resident.deviceId, userId: 'not-a-uuid' }, headers: { origin: BASE_URL } });
  expect(badId.status()).toBe(400);
  expect(((await badId.json()) as { error: { message: string } }).error.message).toMatch(/^The resident must be given by their user id/);
  const unknown = await context.request.post('/api/admin/personal-data/extract/extract.json', { form: { deviceId: resident.deviceId, userId: randomUUID() }, headers: { origin: BASE_URL } });
  expect(unknown.status()).toBe(404);
});

test('a reference id finds each resident of the apartment as a person of their own, and the erasure of one asks for that person’s name (issue 48)', async ({ page, signedInAs }) => {
  const fixtures = await sandboxFixtures();
  const mine = fixtures.approvals[0]?.deviceIds ?? [];
  // An apartment of the manager's systems with at least two residents of distinct names.
  const byApartment = new Map<string, typeof fixtures.residents>();
  for (const r of fixtures.residents.filter((x) => mine.includes(x.deviceId) && x.referenceId)) byApartment.set(`${r.deviceId}/${r.userGroupId}`, [...(byApartment.get(`${r.deviceId}/${r.userGroupId}`) ?? []), r]);
  const household = [...byApartment.values()].find((list) => list.length >= 2 && new Set(list.map((r) => r.name)).size === list.length);
  if (!household) throw new Error('the demo has no apartment with two residents');
  const [first, second] = household as [(typeof household)[number], (typeof household)[number]];
  await signedInAs('admin');
  await expect
    .poll(async () => {
      const response = await page.request.get(`/api/systems/${first.deviceId}/overview`);
      return response.status() === 200 ? ((await response.json()) as { freshness: { status: string } }).freshness.status : `status ${response.status()}`;
    }, { timeout: 90_000 })
    .toBe('ready');

  const results = page.getByRole('region', { name: 'Residents found' });
  await expect(async () => {
    await page.goto(`/admin/personal-data?q=${encodeURIComponent(first.referenceId)}`);
    await expect(results.getByRole('listitem').filter({ hasText: second.name })).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  // Each resident on a card of their own, with their own e-mail; the reference id said to be the apartment's.
  for (const r of household) {
    const card = results.getByRole('listitem').filter({ hasText: r.email });
    await expect(card).toHaveCount(1);
    await expect(card).toContainText(r.name);
    await expect(card).toContainText(`Apartment’s reference id${first.referenceId}`);
  }
  await expect(results).toContainText('home to several of the residents found, who share its number and reference id');

  // The second of them, chosen by name: the dialog names them, and the first one's name does not confirm it.
  await results.getByRole('link', { name: `Show the data held about ${second.name}` }).click();
  const selected = page.getByRole('region', { name: `Data held about ${second.name}` });
  await selected.getByRole('button', { name: `Erase the personal data of ${second.name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Erase the personal data of ${second.name}?` });
  await expect(dialog).toContainText(second.email);
  await expect(dialog).not.toContainText(first.email);
  const confirmation = dialog.getByRole('textbox', { name: 'Type their name or e-mail address to confirm' });
  await confirmation.fill(first.name);
  await expect(dialog.getByRole('button', { name: 'Erase', exact: true })).toBeDisabled();
  await confirmation.fill(first.referenceId);
  await expect(dialog.getByRole('button', { name: 'Erase', exact: true })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});

test('a manager has no personal-data page and no extract', async ({ page, context, signedInAs }) => {
  const { withPlus: resident } = await sampleResidents();
  await signedInAs('manager');
  const response = await page.goto('/admin/personal-data');
  expect(response?.status()).toBe(403);
  await expect(page.getByRole('heading', { level: 1, name: 'This area is for admins' })).toBeVisible();
  const refused = await context.request.post('/api/admin/personal-data/extract/extract.json', { form: { deviceId: resident.deviceId, userId: resident.userId }, headers: { origin: BASE_URL } });
  expect(refused.status()).toBe(403);
  expect((await context.request.get(`/api/admin/personal-data/residents?q=${encodeURIComponent(resident.email)}`)).status()).toBe(403);
});

type Fixtures = Awaited<ReturnType<typeof sandboxFixtures>>;
type Listed = { requests: { status: string; residentName: string | null }[] };
const requestsOf = async (api: APIRequestContext, userId: string) => ((await (await api.get(`/api/requests?resident=${userId}`)).json()) as Listed).requests;

/**
 * Books for a resident of `deviceId` with no requests yet (looked for from the start or the end of
 * the list: two tests, two residents), in the first of their rooms and of the next three weeks with
 * a bookable slot, passing over those whose apartment's quota is full. The system's copy is waited
 * for first. Returns the resident once the portal accepted (202).
 */
async function bookForSomeone(api: APIRequestContext, fixtures: Fixtures, deviceId: string, order: 'from the start' | 'from the end', note?: string) {
  await expect
    .poll(async () => {
      const response = await api.get(`/api/systems/${deviceId}/overview`);
      return response.status() === 200 ? ((await response.json()) as { freshness: { status: string } }).freshness.status : `status ${response.status()}`;
    }, { timeout: 90_000 })
    .toBe('ready');
  const residents = fixtures.residents.filter((r) => r.deviceId === deviceId && /^[A-Za-z0-9]+$/.test(r.apartmentId));
  for (const resident of order === 'from the end' ? residents.reverse() : residents) {
    if ((await requestsOf(api, resident.userId)).length > 0) continue;
    for (const resourceId of resident.resourceIds) {
      // Which weeks have free slots depends on the day the demo's history was laid out from.
      let week = await weekView(api, deviceId, resourceId);
      let slot = week.slots.find((s) => s.bookable);
      for (let i = 0; i < 3 && !slot; i += 1) {
        week = await weekView(api, deviceId, resourceId, week.nav.next);
        slot = week.slots.find((s) => s.bookable);
      }
      if (!slot) continue;
      const booked = await api.post('/api/reservations', {
        headers: { 'idempotency-key': `e2e-erase-${randomUUID()}`, origin: BASE_URL },
        data: { deviceId, resourceId, residentUserId: resident.userId, startTime: slot.startTime, endTime: slot.endTime, ...(note ? { note } : {}) },
      });
      if (booked.status() === 422) continue; // the apartment's quota or a booking rule: another room or resident
      expect(booked.status(), await booked.text()).toBe(202);
      return resident;
    }
  }
  throw new Error(`no resident of ${deviceId} to book for`);
}

test('the demo admin erases a resident after a confirmation that says what changes; the audit keeps that it happened, not the name', async ({ page, signedInAs }) => {
  test.setTimeout(240_000);
  await signedInAs('admin');
  const api = page.request;
  // A resident of the manager's second system, from the end, with no requests yet (this file's other
  // tests book in the first system).
  const fixtures = await sandboxFixtures();
  const deviceId = fixtures.approvals[0]?.deviceIds[1] ?? '';
  // Something of theirs in the portal: a booking with a manager's note.
  const resident = await bookForSomeone(api, fixtures, deviceId, 'from the end', 'E2E erasure note');
  await expect.poll(async () => (await requestsOf(api, resident.userId)).map((r) => r.status), { timeout: 60_000 }).toEqual(['succeeded']);
  const [request] = (await (await api.get(`/api/requests?resident=${resident.userId}`)).json() as { requests: { id: string }[] }).requests;

  await page.goto(`/admin/personal-data?q=${encodeURIComponent(resident.email)}`);
  await page.getByRole('link', { name: `Show the data held about ${resident.name}` }).click();
  const selected = page.getByRole('region', { name: `Data held about ${resident.name}` });
  await expect(selected).toContainText('1 booking request');

  // The confirmation says what will change; Cancel changes nothing.
  const erase = selected.getByRole('button', { name: `Erase the personal data of ${resident.name}` });
  await erase.click();
  const dialog = page.getByRole('dialog', { name: `Erase the personal data of ${resident.name}?` });
  await expect(dialog).toBeVisible();
  // In the reader's language (issue 47: the English dialog quoted the Swedish words).
  await expect(dialog).toContainText(`1 booking request: the name becomes “Resident in LGH ${resident.apartmentId}”`);
  await expect(dialog).toContainText('is not erased here: that is the booking system owner’s task');
  await expect(dialog).toContainText('This cannot be undone.');
  // Whose records change, and the button only once their name or e-mail is typed (issue 48).
  await expect(dialog).toContainText('Only the records of this resident change:');
  await expect(dialog).toContainText(resident.email);
  await expect(dialog).toContainText(resident.userId);
  const confirmation = dialog.getByRole('textbox', { name: 'Type their name or e-mail address to confirm' });
  const eraseButton = dialog.getByRole('button', { name: 'Erase', exact: true });
  await expect(eraseButton).toBeDisabled();
  await confirmation.fill(resident.apartmentId);
  await expect(eraseButton).toBeDisabled();
  await confirmation.fill(resident.email.toUpperCase());
  await expect(eraseButton).toBeEnabled();
  await expectNoSeriousA11yViolations(page, 'the erasure’s confirmation');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect((await requestsOf(api, resident.userId)).map((r) => r.residentName)).toEqual([resident.name]);

  // Opened again, it starts empty.
  await erase.click();
  await expect(confirmation).toHaveValue('');
  await expect(eraseButton).toBeDisabled();
  await confirmation.fill(resident.name);
  await eraseButton.click();
  await expect(page.getByRole('status').filter({ hasText: 'Erased what the portal held about' })).toHaveText(
    new RegExp(`^Erased what the portal held about ${resident.name}: \\d+ records changed, .+\\. The booking system still lists them: ask its owner to erase them there\\.$`),
    { timeout: 30_000 },
  );
  // Their request is no longer theirs: it stays for reports under the apartment's wording.
  expect(await requestsOf(api, resident.userId)).toEqual([]);
  // Handed to pages with no stored (default-language) name, and worded in the reader's language there.
  const listed = (await (await api.get(`/api/requests?deviceId=${deviceId}&limit=200`)).json()) as { requests: { id: string; residentName: string | null; residentAnonymised?: boolean }[] };
  expect(listed.requests.find((r) => r.id === request!.id)).toMatchObject({ residentName: null, residentAnonymised: true });
  await page.goto(`/requests?deviceId=${deviceId}&limit=200`);
  await expect(page.getByRole('main')).toContainText(`Resident in LGH ${resident.apartmentId}`);
  await expect(page.getByRole('main')).not.toContainText('Boende i');

  // The audit log says that it happened, naming the apartment, not the resident.
  await page.goto('/admin/audit');
  const systemName = fixtures.systems.find((s) => s.deviceId === deviceId)?.name ?? '';
  await expect(page.getByRole('cell', { name: new RegExp(`Erased the personal data of Resident in LGH ${resident.apartmentId} in ${systemName} \\(\\d+ records changed\\)`) }).first()).toBeVisible();
  await expect(page.getByRole('main')).not.toContainText('Boende i');
  await expect(page.getByRole('main')).not.toContainText(resident.name);
});

test.describe('in Swedish on a 375 px phone', () => {
  // The header too: server actions' fetches go out with en-US otherwise (see e2e/rules-installations.spec.ts).
  test.use({ locale: 'sv-SE', extraHTTPHeaders: { 'Accept-Language': 'sv-SE,sv;q=0.9' }, viewport: { width: 375, height: 812 } });

  test('erasure waits while a booking for the resident awaits the booking system’s answer, then offers a confirmation in Swedish that fits the screen', async ({ page, context, signedInAs }) => {
    test.setTimeout(240_000);
    await signedInAs('admin');
    const api = page.request;
    // The account's saved language wins over the browser's.
    const saveLocale = (locale: 'sv' | 'en') => context.request.put('/api/me/locale', { data: { locale }, headers: { origin: BASE_URL, 'idempotency-key': `erase-locale-${locale}-${randomUUID()}` } });
    expect((await saveLocale('sv')).ok()).toBe(true);
    const fixtures = await sandboxFixtures();
    const deviceId = fixtures.approvals[0]?.deviceIds[1] ?? '';
    // The booking system answers late: the request waits, as it does when its outcome is slow.
    expect((await sandboxControl('PUT', '/sandbox/_sandbox/faults', { webhook: { delayMs: 30_000 } })).status).toBe(200);
    let resident: Awaited<ReturnType<typeof bookForSomeone>>;
    try {
      resident = await bookForSomeone(api, fixtures, deviceId, 'from the start');
      await page.goto(`/admin/personal-data?q=${encodeURIComponent(resident.email)}&deviceId=${deviceId}&userId=${resident.userId}`);
      const selected = page.getByRole('region', { name: `Uppgifter om ${resident.name}` });
      await expect(selected).toContainText('Raderingen måste vänta: En bokningsförfrågan för den boende väntar fortfarande på bokningssystemets svar');
      await expect(selected.getByRole('button', { name: `Radera personuppgifterna om ${resident.name}` })).toHaveCount(0);
      await expectNoSidewaysScroll(page);
    } finally {
      await sandboxControl('DELETE', '/sandbox/_sandbox/faults');
    }
    try {
      await expect.poll(async () => (await requestsOf(api, resident.userId)).map((r) => r.status), { timeout: 90_000 }).toEqual(['succeeded']);
      await page.reload();
      const selected = page.getByRole('region', { name: `Uppgifter om ${resident.name}` });
      await selected.getByRole('button', { name: `Radera personuppgifterna om ${resident.name}` }).click();
      const dialog = page.getByRole('dialog', { name: `Radera personuppgifterna om ${resident.name}?` });
      await expect(dialog).toContainText(new RegExp(`1 bokningsförfrågan: namnet blir ”Boende i LGH ${resident.apartmentId}”`));
      await expect(dialog).toContainText('Det går inte att ångra.');
      await expect(dialog.getByRole('textbox', { name: 'Skriv hens namn eller e-postadress för att bekräfta' })).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Radera', exact: true })).toBeDisabled();
      await expectNoSidewaysScroll(page);
      const box = await dialog.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 375, 'the dialog fits the screen').toBe(true);
      await expectNoSeriousA11yViolations(page, 'the erasure’s confirmation in Swedish at 375 px');
      await dialog.getByRole('button', { name: 'Avbryt' }).click();
      await expect(dialog).toBeHidden();
      expect((await requestsOf(api, resident.userId)).map((r) => r.residentName)).toEqual([resident.name]);
    } finally {
      await saveLocale('en');
    }
  });
});
