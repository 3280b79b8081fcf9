import type { APIRequestContext, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { BASE_URL, DEMO, expect, sandboxFixtures, signInWithApi, test, weekView } from './utils';

/** What the core journey reads and clicks, per language. */
const WORDS = {
  sv: {
    browser: 'sv-SE',
    signInHeading: 'Logga in i bokningsportalen',
    email: 'E-post',
    password: 'Lösenord',
    signIn: 'Logga in',
    nav: 'Huvudmeny',
    navLinks: ['System', 'Boende', 'Förfrågningar'],
    weekLabel: (week: number) => new RegExp(`^v\\. ${week}, \\d{1,2}`),
    weekdays: /^(mån|tis|ons|tors|fre|lör|sön) \d{1,2}/,
    dayName: /^(måndag|tisdag|onsdag|torsdag|fredag|lördag|söndag) \d{1,2} (januari|februari|mars|april|maj|juni|juli|augusti|september|oktober|november|december), \d{2}:\d{2}–\d{2}:\d{2}/,
    free: ', ledigt',
    resident: 'Boende',
    apartmentGroup: (apartment: string) => new RegExp(`^Lägenhet ${apartment}, `),
    forResident: (name: string, apartment: string) => `För ${name}, lägenhet ${apartment}`,
    book: 'Boka',
    pendingFor: (apartment: string) => `, bokning väntar på svar för lägenhet ${apartment}`,
    bookedBy: (apartment: string) => `, bokat av lägenhet ${apartment}`,
    outcomes: 'Utfall av bokningar',
    booked: 'bokad.',
  },
  en: {
    browser: 'en-GB',
    signInHeading: 'Sign in to the booking portal',
    email: 'E-mail',
    password: 'Password',
    signIn: 'Sign in',
    nav: 'Main',
    navLinks: ['Systems', 'Residents', 'Requests'],
    weekLabel: (week: number) => new RegExp(`^Week ${week}, \\d{1,2}`),
    weekdays: /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2}/,
    dayName: /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) \d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December), \d{2}:\d{2}–\d{2}:\d{2}/,
    free: ', free',
    resident: 'Resident',
    apartmentGroup: (apartment: string) => new RegExp(`^Apartment ${apartment}, `),
    forResident: (name: string, apartment: string) => `For ${name}, apartment ${apartment}`,
    book: 'Book',
    pendingFor: (apartment: string) => `, booking pending for apartment ${apartment}`,
    bookedBy: (apartment: string) => `, booked by apartment ${apartment}`,
    outcomes: 'Booking outcomes',
    booked: 'booked.',
  },
} as const;

/** A resident (plain apartment number) with no future booking in one of their rooms, and a later week with free slots there. */
async function pickScenario(request: APIRequestContext, skip: Set<string>) {
  const fixtures = await sandboxFixtures();
  const deviceIds = fixtures.approvals[0]?.deviceIds ?? [];
  // First an apartment holding nothing ahead in the room; the demo's history is generated relative to
  // today, so on some days (and after the specs before this one) none is left: then one holding a
  // single booking there, below the quota of 2, since the journey books one slot (CI, 28 November).
  for (const mostHeld of [0, 1]) {
    for (const resident of fixtures.residents.filter((r) => deviceIds.includes(r.deviceId) && /^[A-Za-z0-9]+$/.test(r.apartmentId) && !skip.has(r.userGroupId))) {
      for (const resourceId of resident.resourceIds) {
        let week: string | undefined;
        let held = 0;
        let target: { key: string; week: number } | null = null;
        for (let i = 0; i < 5; i += 1) {
          const view = await weekView(request, resident.deviceId, resourceId, week);
          held += view.slots.filter((s) => !s.isPast && s.state !== 'free' && s.ownerLabel?.apartment === resident.apartmentId).length;
          if (i >= 1 && !target && view.slots.filter((s) => s.bookable).length >= 2) target = { key: view.week.key, week: view.week.week };
          week = view.nav.next;
        }
        if (held <= mostHeld && target) return { resident, resourceId, ...target };
      }
    }
  }
  throw new Error('no resident below the quota in the demo data');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const usedGroups = new Set<string>();

for (const locale of ['sv', 'en'] as const) {
  const words = WORDS[locale];
  test.describe(`in ${locale === 'sv' ? 'Swedish' : 'English'}`, () => {
    test.use({ locale: words.browser, extraHTTPHeaders: { 'Accept-Language': words.browser } });

    test('the core journey: sign in, the week grid, book for a resident, see the outcome live', async ({ page }) => {
      test.setTimeout(180_000);
      // A browser asking for the language gets the whole portal in it, from the sign-in page on.
      await page.goto('/sign-in');
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expect(page.getByRole('heading', { name: words.signInHeading })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `the sign-in page (${locale})`);
      await page.getByLabel(words.email).fill(DEMO.manager.email);
      await page.getByLabel(words.password, { exact: true }).fill(DEMO.manager.password);
      await page.getByRole('button', { name: words.signIn, exact: true }).click();
      await expect(page).toHaveURL(/\/systems/);
      const nav = page.getByRole('navigation', { name: words.nav });
      for (const name of words.navLinks) await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();

      const scenario = await pickScenario(page.request, usedGroups);
      usedGroups.add(scenario.resident.userGroupId);
      const { resident } = scenario;
      await page.goto(`/systems/${resident.deviceId}/resources/${scenario.resourceId}?week=${scenario.key}`);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      // The week by its ISO number and dates in the language; the columns' weekday names too.
      await expect(page.getByText(words.weekLabel(scenario.week)).first()).toBeVisible();
      await expect(page.getByRole('heading', { name: words.weekdays }).first()).toBeVisible();
      const free = page.getByRole('region').getByRole('button', { name: new RegExp(`${escapeRegExp(words.free)}$`) }).first();
      const name = ((await free.getAttribute('aria-label')) ?? (await free.innerText())).replace(words.free, '');
      // "tisdag 1 december, 07:00–10:00" / "Tuesday 1 December, 07:00–10:00": 24-hour local times.
      expect(name).toMatch(words.dayName);
      await expectNoSeriousA11yViolations(page, `the week grid (${locale})`);

      await free.click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('combobox', { name: words.resident }).fill(resident.apartmentId);
      const group = dialog.getByRole('group', { name: words.apartmentGroup(escapeRegExp(resident.apartmentId)) }).first();
      await group.getByRole('option', { name: new RegExp(`^${escapeRegExp(resident.name)}`) }).click({ timeout: 20_000 });
      await expect(dialog).toContainText(words.forResident(resident.name, resident.apartmentId));
      await dialog.getByRole('button', { name: words.book, exact: true }).click();
      await expect(dialog).toBeHidden();

      const slot = page.getByRole('button', { name: new RegExp(`^${escapeRegExp(name)}, `) });
      await expect(slot).toHaveAccessibleName(new RegExp(`^${escapeRegExp(name)}(${escapeRegExp(words.pendingFor(resident.apartmentId))}|${escapeRegExp(words.bookedBy(resident.apartmentId))})$`));
      await expect(slot).toHaveAccessibleName(`${name}${words.bookedBy(resident.apartmentId)}`, { timeout: 30_000 });
      await expect(page.getByRole('list', { name: words.outcomes })).toContainText(words.booked);
    });
  });
}

async function htmlLang(page: Page) {
  return page.locator('html').getAttribute('lang');
}

test('the header switcher saves the choice on the account: a new session in a Swedish browser stays English', async ({ browser }) => {
  const swedish = await browser.newContext({ baseURL: BASE_URL, locale: 'sv-SE' });
  try {
    expect(await signInWithApi(swedish.request, DEMO.admin.email, DEMO.admin.password)).toBeNull();
    const page = await swedish.newPage();
    await page.goto('/systems');
    expect(await htmlLang(page)).toBe('sv');
    const languages = page.getByRole('group', { name: 'Byt språk' });
    await expect(languages.getByRole('button', { name: 'Svenska' })).toHaveAttribute('aria-pressed', 'true');
    await languages.getByRole('button', { name: 'English' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Systems', exact: true })).toBeVisible();
    await expect(page.getByRole('group', { name: 'Change language' }).getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');

    // Another browser (a new session, asking for Swedish): the saved choice wins.
    const other = await browser.newContext({ baseURL: BASE_URL, locale: 'sv-SE' });
    expect(await signInWithApi(other.request, DEMO.admin.email, DEMO.admin.password)).toBeNull();
    const otherPage = await other.newPage();
    await otherPage.goto('/systems');
    expect(await htmlLang(otherPage)).toBe('en');
    await expect(otherPage.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await other.close();

    // Without JavaScript the buttons are a plain form: the choice is saved and the page comes back in it.
    const noScript = await browser.newContext({ baseURL: BASE_URL, locale: 'en-GB', javaScriptEnabled: false });
    expect(await signInWithApi(noScript.request, DEMO.admin.email, DEMO.admin.password)).toBeNull();
    const plain = await noScript.newPage();
    await plain.goto('/residents');
    await plain.getByRole('group', { name: 'Change language' }).getByRole('button', { name: 'Svenska' }).click();
    await expect(plain).toHaveURL(/\/residents$/);
    expect(await htmlLang(plain)).toBe('sv');
    await expect(plain.getByRole('navigation', { name: 'Huvudmeny' })).toBeVisible();
    await noScript.close();
  } finally {
    // The demo admin reads English in the other tests (their browsers ask for it either way).
    await swedish.request.put('/api/me/locale', { data: { locale: 'en' }, headers: { origin: BASE_URL, 'idempotency-key': 'language-reset' } });
    await swedish.close();
  }
});

test('before sign-in the switcher remembers the choice in this browser only', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: BASE_URL, locale: 'en-GB' });
  const page = await context.newPage();
  await page.goto('/sign-in');
  expect(await htmlLang(page)).toBe('en');
  await page.getByRole('group', { name: 'Change language' }).getByRole('button', { name: 'Svenska' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'sv');
  await expect(page.getByRole('heading', { name: 'Logga in i bokningsportalen' })).toBeVisible();
  await page.goto('/sign-in');
  expect(await htmlLang(page)).toBe('sv');
  await context.close();
});

test('an API client that names no language is answered in the one its session signed in under, else the portal’s default (issue 48)', async ({ playwright }) => {
  const bad = async (api: APIRequestContext) => ((await (await api.get('/api/systems/not-a-uuid')).json()) as { error: { message: string } }).error.message;
  // Signed in from an English browser (no saved choice, no switcher cookie), then used by a client sending no Accept-Language.
  const browserSide = await playwright.request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { 'Accept-Language': 'en-US,en;q=0.9' } });
  expect(await signInWithApi(browserSide, DEMO.manager.email, DEMO.manager.password)).toBeNull();
  const state = await browserSide.storageState();
  expect(state.cookies.map((c) => c.name)).not.toContain('portal-locale');
  const script = await playwright.request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { 'Accept-Language': '' }, storageState: state });
  expect(await bad(script)).toBe('The system id in the path must be a UUID.');
  // Nobody signed in and no language named: the portal's default (Swedish in the demo).
  const anonymous = await playwright.request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { 'Accept-Language': '' } });
  const refused = await anonymous.get('/api/systems');
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/^Logga in/);
  await Promise.all([browserSide.dispose(), script.dispose(), anonymous.dispose()]);
});
