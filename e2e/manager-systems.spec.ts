import { randomUUID } from 'node:crypto';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, sandboxFixtures, test, uniqueEmail } from './utils';

// Issue 49: an admin gives a manager every system a filter selects, and takes them back, in one
// step with the count shown first. The seed world's demo systems lie in the areas Norr and Söder
// (e2e/global-setup.ts); each test makes a manager of its own, so none depends on another.

const WORDS = {
  en: {
    browser: 'en-GB',
    newAccount: 'New account',
    name: 'Name',
    email: 'E-mail',
    password: 'Password',
    create: 'Create account',
    systemsOf: (n: string) => `Systems of ${n}`,
    noSystems: 'No systems',
    oneSystem: '1 system',
    area: 'Area',
    show: 'Show',
    counts: (n: string, matching: number, mine: string) => `${matching} system matches; ${mine === '0' ? `none is ${n}’s` : `${mine} is ${n}’s`}.`,
    give: (n: string) => `Give ${n} the 1 matching system`,
    giveTitle: (n: string) => `Give ${n} 1 more system?`,
    giveConfirm: 'Give 1 system',
    gave: (n: string) => `Gave ${n} 1 more system (1 matched).`,
    takeBack: (n: string) => `Take back the 1 matching system from ${n}`,
    takeBackConfirm: 'Take back 1 system',
    takeBackNone: (n: string) => `No matching system to take back from ${n}`,
    tookBack: (n: string) => `Took 1 system back from ${n} (1 matched).`,
    list: (n: string) => `Systems of ${n}`,
    none: (n: string) => `None of ${n}’s systems matches the filter.`,
    audit: '/admin/audit',
    auditGave: (n: string) => `Gave ${n} 1 system: area Norr.`,
    auditTook: (n: string) => `Took 1 system back from ${n}: area Norr.`,
  },
  sv: {
    browser: 'sv-SE',
    newAccount: 'Nytt konto',
    name: 'Namn',
    email: 'E-post',
    password: 'Lösenord',
    create: 'Skapa konto',
    systemsOf: (n: string) => `System för ${n}`,
    noSystems: 'Inga system',
    oneSystem: '1 system',
    area: 'Område',
    show: 'Visa',
    counts: (n: string, matching: number, mine: string) => `${matching} system matchar; ${mine === '0' ? `inget av dem är ${n}s` : `${mine} är ${n}s`}.`,
    give: (n: string) => `Ge ${n} det 1 matchande systemet`,
    giveTitle: (n: string) => `Ge ${n} 1 system till?`,
    giveConfirm: 'Ge 1 system',
    gave: (n: string) => `Gav ${n} 1 system till (1 matchade).`,
    takeBack: (n: string) => `Ta tillbaka det 1 matchande systemet från ${n}`,
    takeBackConfirm: 'Ta tillbaka 1 system',
    takeBackNone: (n: string) => `Inget matchande system att ta tillbaka från ${n}`,
    tookBack: (n: string) => `Tog tillbaka 1 system från ${n} (1 matchade).`,
    list: (n: string) => `System för ${n}`,
    none: (n: string) => `Inget av ${n}s system matchar filtret.`,
    audit: '/admin/audit',
    auditGave: (n: string) => `Gav ${n} 1 system: område Norr.`,
    auditTook: (n: string) => `Tog tillbaka 1 system från ${n}: område Norr.`,
  },
} as const;

for (const locale of ['en', 'sv'] as const) {
  const w = WORDS[locale];
  test.describe(locale === 'en' ? 'in English' : 'in Swedish', () => {
    test.use({ locale: w.browser, extraHTTPHeaders: { 'Accept-Language': w.browser } });

    test('an admin opens a manager, filters by area, gives them the matching systems with the count shown first, and takes them back', async ({ page, signedInAs }) => {
      test.setTimeout(120_000);
      const fixtures = await sandboxFixtures();
      const northId = fixtures.approvals[0]?.deviceIds[0] ?? '';
      const north = fixtures.systems.find((s) => s.deviceId === northId)?.name ?? '';
      const name = `E2E ${locale} ${randomUUID().slice(0, 6)}`;
      await signedInAs('admin');

      await page.goto('/admin/managers');
      const form = page.getByRole('region', { name: w.newAccount });
      await form.getByLabel(w.name, { exact: true }).fill(name);
      await form.getByLabel(w.email).fill(uniqueEmail('e2e-bulk'));
      await form.getByLabel(w.password, { exact: true }).fill('e2e-password-123');
      await form.getByRole('button', { name: w.create }).click();
      await expect(form.getByRole('status')).toContainText(name);
      // The managers page lists the manager with a count and a link, no checkbox per system.
      const card = page.getByRole('listitem', { name });
      await expect(card.getByText(w.noSystems, { exact: true })).toBeVisible();
      await expect(page.getByRole('checkbox')).toHaveCount(0);
      await card.getByRole('link', { name: w.systemsOf(name) }).click();
      await expect(page.getByRole('heading', { level: 1, name: w.systemsOf(name) })).toBeVisible();

      await page.getByLabel(w.area).selectOption('Norr');
      await page.getByRole('button', { name: w.show, exact: true }).click();
      await expect(page).toHaveURL(/area=Norr/);
      await expect(page.getByText(w.counts(name, 1, '0'))).toBeVisible();
      await expect(page.getByRole('button', { name: w.takeBackNone(name) })).toBeDisabled();

      // The count is asked about before anything changes.
      await page.getByRole('button', { name: w.give(name) }).click();
      const dialog = page.getByRole('dialog', { name: w.giveTitle(name) });
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: w.giveConfirm }).click();
      await expect(page.getByRole('status').filter({ hasText: w.gave(name) })).toBeVisible();
      await expect(page.getByText(w.counts(name, 1, '1'))).toBeVisible();
      const list = page.getByRole('list', { name: w.list(name) });
      await expect(list.getByRole('listitem')).toHaveCount(1);
      await expect(list.getByRole('link', { name: north })).toBeVisible();
      await expect(page.getByRole('button', { name: w.give(name) })).toBeDisabled();
      await expectNoSeriousA11yViolations(page, `a manager's systems (${locale})`);

      await page.getByRole('button', { name: w.takeBack(name) }).click();
      await page.getByRole('dialog').getByRole('button', { name: w.takeBackConfirm }).click();
      await expect(page.getByRole('status').filter({ hasText: w.tookBack(name) })).toBeVisible();
      await expect(page.getByText(w.counts(name, 1, '0'))).toBeVisible();
      await expect(page.getByText(w.none(name))).toBeVisible();

      // One entry per change, with its count and filter.
      await page.goto(w.audit);
      const rows = page.getByRole('table').getByRole('row');
      await expect(rows.nth(1)).toContainText(w.auditTook(name));
      await expect(rows.nth(2)).toContainText(w.auditGave(name));
    });
  });
}

test('a filter the page cannot use is said in a sentence, and nothing can be changed with it', async ({ page, signedInAs }) => {
  await signedInAs('admin');
  await page.goto('/admin/managers');
  await page.getByRole('link', { name: 'Systems of Demo Manager' }).click();
  await expect(page).toHaveURL(/\/admin\/managers\/[0-9a-f-]{36}$/);
  const url = new URL(page.url());
  await page.goto(`${url.pathname}?connection=not-an-id`);
  await expect(page.getByRole('region', { name: 'Choose systems' }).getByRole('alert')).toHaveText('Invalid input: connectionId: must be one of the connections listed (an id as the page gives it)');
  await expect(page.getByRole('button', { name: /^Give / })).toHaveCount(0);
  // The same over HTTP: invalid input is a 422 with a sentence (the portal's answer to any input zod refuses), changing nothing; an unknown manager 404.
  const userId = url.pathname.split('/').at(-1) ?? '';
  const api = `/api/admin/managers/${userId}/systems`;
  const headers = { origin: new URL(page.url()).origin };
  const refused = await page.request.post(api, { data: { change: 'assign', selection: {} }, headers });
  expect(refused.status()).toBe(422);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
    'Invalid input: selection: name the systems: text in their name, street or city, an area, an approval, or all',
  );
  expect((await page.request.get(`${api}?connectionId=nope`)).status()).toBe(422);
  expect(await (await page.request.get(`${api}?area=norr`)).json()).toEqual({ matching: 1, assigned: 1 });
  expect((await page.request.post(`/api/admin/managers/${randomUUID()}/systems`, { data: { change: 'assign', selection: { all: true } }, headers })).status()).toBe(404);
  // Idempotent: the demo manager has both systems already.
  expect(await (await page.request.post(api, { data: { change: 'assign', selection: { all: true } }, headers })).json()).toEqual({ change: 'assign', matching: 2, changed: 0 });
  // An unknown account, or an admin's, has no such page.
  expect((await page.goto(`/admin/managers/${randomUUID()}`))?.status()).toBe(404);
  expect((await page.goto('/admin/managers/not-a-uuid'))?.status()).toBe(404);
});

test('the page fits 375 px and passes axe', async ({ page, signedInAs }) => {
  test.setTimeout(120_000);
  await signedInAs('admin');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/admin/managers');
  await page.getByRole('link', { name: 'Systems of Demo Manager' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Systems of Demo Manager' })).toBeVisible();
  await expect(page.getByText('2 systems are connected; 2 are Demo Manager’s.')).toBeVisible();
  await expectNoSeriousA11yViolations(page, "a manager's systems at 375 px");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});
