import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { BASE_URL, DEMO, expect, sandboxFixtures, signInWithApi, test } from './utils';

// Issue 49: finding a building among a thousand — search as you type, grouping and the address
// that keeps both (the back button undoes a grouping), and the admin's import preview. Each test
// sets the streets and cities it looks for, unique to its run, and clears them afterwards.

const stamp = () => Date.now().toString(36);

/** Sets (or, with null, clears) a system's street and city as the admin. */
async function setPlace(request: APIRequestContext, deviceId: string, street: string | null, city: string | null) {
  const response = await request.patch(`/api/systems/${deviceId}`, { data: { street: street ?? '', city: city ?? '' }, headers: { origin: BASE_URL } });
  expect(response.status()).toBe(200);
}

/** A signed-in context in a language (the account's saved language set to it, as a person would). */
async function signedIn(browser: Browser, who: 'admin' | 'manager', locale: 'en' | 'sv') {
  const context = await browser.newContext({
    baseURL: BASE_URL,
    locale: locale === 'sv' ? 'sv-SE' : 'en-US',
    extraHTTPHeaders: { 'Accept-Language': locale === 'sv' ? 'sv-SE,sv;q=0.9' : 'en-US,en;q=0.9' },
    viewport: { width: 375, height: 812 },
  });
  expect(await signInWithApi(context.request, DEMO[who].email, DEMO[who].password)).toBeNull();
  const saved = await context.request.put('/api/me/locale', { data: { locale }, headers: { origin: BASE_URL, 'idempotency-key': `systems-list-${who}-${locale}-${stamp()}` } });
  expect(saved.ok()).toBe(true);
  return context;
}

const WORDS = {
  en: { list: 'Your systems', search: 'Search', groupBy: 'Group by', city: 'City', cityHeading: (c: string) => `City: ${c}`, showing: /^Systems 1–1 of 1/ },
  sv: { list: 'Dina system', search: 'Sök', groupBy: 'Gruppera efter', city: 'Ort', cityHeading: (c: string) => `Ort: ${c}`, showing: /^System 1–1 av 1/ },
} as const;

async function fitsNarrow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
}

for (const locale of ['en', 'sv'] as const) {
  const w = WORDS[locale];
  test(`(${locale}) the manager finds a building as they type and groups by city at 375 px; the address keeps both and the back button undoes the grouping`, async ({ browser }) => {
    test.setTimeout(180_000);
    const fixtures = await sandboxFixtures();
    const [first, second] = fixtures.approvals[0]?.deviceIds ?? [];
    if (!first || !second) throw new Error('the demo manager should have two systems');
    const firstName = fixtures.systems.find((s) => s.deviceId === first)?.name ?? '';
    const run = stamp();
    const admin = await signedIn(browser, 'admin', 'en');
    const manager = await signedIn(browser, 'manager', locale);
    try {
      await setPlace(admin.request, first, `Sökgatan ${run} 1`, `Stad-${run}-A`);
      await setPlace(admin.request, second, `Annangatan ${run} 2`, `Stad-${run}-B`);
      const page = await manager.newPage();
      await page.goto('/systems');
      const list = page.getByRole('list', { name: w.list });
      await expect(list.getByRole('listitem')).toHaveCount(2);

      // As you type: no button, the list and the address follow.
      await page.getByRole('searchbox', { name: w.search }).pressSequentially(`sökgatan ${run}`, { delay: 20 });
      await expect(page).toHaveURL(new RegExp(`[?&]q=s%C3%B6kgatan(\\+|%20)${run}`));
      await expect(list.getByRole('listitem')).toHaveCount(1);
      await expect(list.getByRole('listitem')).toContainText(firstName);
      await expect(list.getByRole('listitem')).toContainText(`Sökgatan ${run} 1, Stad-${run}-A`);
      await expect(page.getByRole('status').filter({ hasText: w.showing })).toBeVisible();
      await fitsNarrow(page);

      // A shared link opens the same list.
      const shared = await manager.newPage();
      await shared.goto(page.url());
      await expect(shared.getByRole('searchbox', { name: w.search })).toHaveValue(`sökgatan ${run}`);
      await expect(shared.getByRole('list', { name: w.list }).getByRole('listitem')).toHaveCount(1);
      await shared.close();

      // Grouped by city: each city its heading; the back button goes back to the ungrouped list.
      await page.getByRole('searchbox', { name: w.search }).fill('');
      await expect(page).not.toHaveURL(/[?&]q=/);
      await page.getByRole('combobox', { name: w.groupBy }).selectOption({ label: w.city });
      await expect(page).toHaveURL(/[?&]group=city/);
      await expect(page.getByRole('heading', { level: 2, name: w.cityHeading(`Stad-${run}-A`) })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: w.cityHeading(`Stad-${run}-B`) })).toBeVisible();
      await fitsNarrow(page);
      await expectNoSeriousA11yViolations(page, `the systems list grouped (${locale})`);
      await page.goBack();
      await expect(page).not.toHaveURL(/group=city/);
      await expect(page.getByRole('heading', { level: 2, name: w.cityHeading(`Stad-${run}-A`) })).toHaveCount(0);
      await expect(page.getByRole('combobox', { name: w.groupBy })).toHaveValue('none');

      // A wrong address is a sentence, not a blank page.
      await page.goto('/systems?page=0x10');
      await expect(page.getByRole('alert').filter({ hasText: locale === 'sv' ? 'Sidan måste vara ett heltal från 1 till 100000.' : 'The page must be a whole number from 1 to 100000.' })).toBeVisible();
      expect((await manager.request.get('/api/systems?size=7')).status()).toBe(400);
    } finally {
      await setPlace(admin.request, first, null, null);
      await setPlace(admin.request, second, null, null);
      if (locale === 'sv') await manager.request.put('/api/me/locale', { data: { locale: 'en' }, headers: { origin: BASE_URL, 'idempotency-key': `systems-list-reset-${stamp()}` } });
      await admin.close();
      await manager.close();
    }
  });
}

const IMPORT_WORDS = {
  en: {
    file: 'CSV or XLSX file',
    preview: 'Show what would change',
    nothing: 'The file has errors, so nothing in it can be applied.',
    unknownRow: (id: string) => `Row 3: No connected system has the device id ${id}.`,
    change: (street: string) => `Street: (empty) → ${street}`,
    apply: 'Apply 1 change',
    applied: 'Applied: 1 system changed.',
  },
  sv: {
    file: 'CSV- eller XLSX-fil',
    preview: 'Visa vad som skulle ändras',
    nothing: 'Filen har fel, så inget i den kan tillämpas.',
    unknownRow: (id: string) => `Rad 3: Inget anslutet system har enhets-id ${id}.`,
    change: (street: string) => `Gata: (tomt) → ${street}`,
    apply: 'Tillämpa 1 ändring',
    applied: 'Klart: 1 system ändrade.',
  },
} as const;

for (const locale of ['en', 'sv'] as const) {
  const w = IMPORT_WORDS[locale];
  test(`(${locale}) the admin imports streets from a file: a preview per row, a file with errors applies nothing, a good one applies on confirmation`, async ({ browser }) => {
    test.setTimeout(180_000);
    const fixtures = await sandboxFixtures();
    const deviceId = fixtures.approvals[0]?.deviceIds[0] ?? '';
    const run = stamp();
    const admin = await signedIn(browser, 'admin', locale);
    try {
      // The export is the file to edit: the system's current name, no street yet.
      const exported = await admin.request.get(`/api/admin/systems/export?format=csv`);
      expect(exported.status()).toBe(200);
      const lines = (await exported.text()).replace(/^\uFEFF/, '').split('\r\n');
      expect(lines[0]).toBe('deviceId;name;street;city;area');
      const row = lines.find((l) => l.startsWith(`${deviceId};`));
      if (!row) throw new Error('the export should list the system');
      const [, name] = row.split(';');
      const street = `Importgatan ${run}`;
      const good = `${lines[0]}\r\n${deviceId};${name};${street};;\r\n`;
      const unknown = '00000000-0000-4000-8000-000000000000';

      const page = await admin.newPage();
      await page.goto('/admin/systems');
      const file = page.getByLabel(w.file);
      await file.setInputFiles({ name: 'systems.csv', mimeType: 'text/csv', buffer: Buffer.from(`${good}${unknown};Nowhere;;;\r\n`) });
      await page.getByRole('button', { name: w.preview }).click();
      await expect(page.getByRole('alert').filter({ hasText: w.nothing })).toBeVisible();
      await expect(page.getByRole('alert').getByRole('listitem')).toHaveText([w.unknownRow(unknown)]);
      await expect(page.getByRole('button', { name: w.apply })).toHaveCount(0);

      await file.setInputFiles({ name: 'systems.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
      await page.getByRole('button', { name: w.preview }).click();
      await expect(page.getByText(w.change(street))).toBeVisible();
      await fitsNarrow(page);
      await page.getByRole('button', { name: w.apply }).click();
      await expect(page.getByRole('status').filter({ hasText: w.applied })).toBeVisible();
      const system = (await (await admin.request.get(`/api/systems/${deviceId}`)).json()) as { system: { street: string | null } };
      expect(system.system.street).toBe(street);
      // The list finds it by the street it was given.
      await page.goto(`/admin/systems?q=${encodeURIComponent(street)}`);
      await expect(page.getByText(`${street}`, { exact: true })).toBeVisible();
    } finally {
      await setPlace(admin.request, deviceId, null, null);
      if (locale === 'sv') await admin.request.put('/api/me/locale', { data: { locale: 'en' }, headers: { origin: BASE_URL, 'idempotency-key': `systems-import-reset-${stamp()}` } });
      await admin.close();
    }
  });
}
