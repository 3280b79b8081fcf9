import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { BASE_URL, DEMO, expect, firstSystem, sandboxFixtures, signInWithApi, test } from './utils';

test('the building view: opened from the overview, every room with a free slot link to its grid; day and week; 375 px', async ({ page, signedInAs }) => {
  await signedInAs('manager');
  const overview = await firstSystem(page);
  const deviceId = overview.system.deviceId;
  await page.goto(`/systems/${deviceId}`);
  await page.getByRole('link', { name: /^Building view/ }).click();
  await expect(page).toHaveURL(new RegExp(`/systems/${deviceId}/building$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Building view' })).toBeVisible();

  // The day: every room of the system is a row, server-rendered with its bookings.
  const day = page.getByRole('table', { name: /^Slots of every room on / });
  await expect(day).toBeVisible();
  const rows = day.getByRole('rowheader');
  await expect(rows).toHaveCount(overview.resources.length);
  for (const resource of overview.resources.slice(0, 3)) await expect(rows.getByRole('link', { name: resource.name, exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the building view (day)');

  // The week: rooms × days, each free slot a link to its room's week grid.
  await page.getByRole('navigation', { name: 'Day or week' }).getByRole('link', { name: 'Week' }).click();
  await expect(page).toHaveURL(/[?&]view=week/);
  const week = page.getByRole('table', { name: /^Free slots of every room in Week \d+/ });
  await expect(week).toBeVisible();
  await expect(week.getByRole('columnheader')).toHaveCount(8);
  await expectNoSeriousA11yViolations(page, 'the building view (week)');
  // Next week has free slots in the demo (bookings lie mostly in the past).
  await page.getByRole('link', { name: 'Next week' }).click();
  await expect(page).toHaveURL(/[?&]view=week/);
  // A free slot is a link named by its time, in a list named by the room and the day.
  const list = page.getByRole('list', { name: /^Free slots in .+ on / }).first();
  await expect(list).toBeVisible();
  const room = /^Free slots in (.+) on /.exec((await list.getAttribute('aria-label'))!)![1]!;
  const free = list.getByRole('link').first();
  await expect(free).toHaveText(/^\d{2}:\d{2}–\d{2}:\d{2}( next day)?$/);
  const href = (await free.getAttribute('href'))!;
  const weekKey = new URL(href, page.url()).searchParams.get('week')!;
  expect(weekKey).toMatch(/^\d{4}-W\d{2}$/);
  await free.click();
  await expect(page).toHaveURL(new RegExp(`/systems/${deviceId}/resources/[0-9a-f-]{36}\\?week=${weekKey}$`));
  await expect(page.getByRole('heading', { level: 1, name: room })).toBeVisible();
  await page.goBack();

  // Only rooms with a free slot, and one room at a time (the phone's way), through the GET form.
  await page.getByRole('checkbox', { name: 'Only rooms with a free slot' }).check();
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/[?&]free=1/);
  await expect(page.getByRole('checkbox', { name: 'Only rooms with a free slot' })).toBeChecked();

  // A mistyped day says so and shows today.
  await page.goto(`/systems/${deviceId}/building?day=2026-02-30&view=fortnight`);
  await expect(page.getByRole('alert').filter({ hasText: '“2026-02-30” is not a date' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: '“fortnight” is not a view' })).toBeVisible();
  await expect(page.getByRole('table', { name: /^Slots of every room on / })).toBeVisible();

  // 375 px: no horizontal page overflow; one room chosen in the select shows that room alone.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/systems/${deviceId}/building?view=week`);
  await expect(page.getByRole('table', { name: /^Free slots of every room in / })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const chosen = overview.resources[1] ?? overview.resources[0]!;
  await page.getByRole('combobox', { name: 'Room' }).selectOption({ label: chosen.name });
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/[?&]room=[0-9a-f-]{36}/);
  const one = page.getByRole('table', { name: /^Free slots of every room in / }).getByRole('rowheader');
  await expect(one).toHaveCount(1);
  await expect(one).toContainText(chosen.name);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoSeriousA11yViolations(page, 'the building view at 375 px');
});

test('the day table fits a 1,366 px laptop without sideways scrolling, in every system of the demo and in both languages; the legend says what the colours mean', async ({ browser, page, signedInAs }) => {
  test.setTimeout(240_000);
  await signedInAs('manager');
  await firstSystem(page);
  const fixtures = await sandboxFixtures();
  const systems = fixtures.approvals[0]?.deviceIds ?? [];
  expect(systems.length).toBeGreaterThan(0);
  // Every system's first load done (the building view says "still loading" until then).
  for (const deviceId of systems) {
    await expect
      .poll(async () => {
        const response = await page.request.get(`/api/systems/${deviceId}/overview`);
        return response.status() === 200 ? ((await response.json()) as { freshness: { status: string } }).freshness.status : `status ${response.status()}`;
      }, { timeout: 90_000 })
      .toBe('ready');
  }
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  // A Swedish browser (the words are longer), without saving a language on the demo account.
  const swedish = await browser.newContext({ baseURL: BASE_URL, locale: 'sv-SE' });
  try {
    expect(await signInWithApi(swedish.request, DEMO.manager.email, DEMO.manager.password)).toBeNull();
    const svPage = await swedish.newPage();
    for (const [language, p] of [['en', page], ['sv', svPage]] as const) {
      await p.setViewportSize({ width: 1366, height: 768 });
      for (const deviceId of systems) {
        // Today, and a day ahead (more free slots, other words).
        for (const offset of [0, 3]) {
          await p.goto(`/systems/${deviceId}/building?day=${day(offset)}`);
          await expect(p.locator('html')).toHaveAttribute('lang', language);
          const table = p.locator('table[data-building]');
          await expect(table).toBeVisible();
          const { scrollWidth, clientWidth } = await table.evaluate((t) => ({ scrollWidth: t.parentElement!.scrollWidth, clientWidth: t.parentElement!.clientWidth }));
          expect(scrollWidth, `${language} ${deviceId} ${day(offset)}`).toBeLessThanOrEqual(clientWidth);
          expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
        }
      }
    }
    const legend = svPage.getByRole('list', { name: 'Vad dagens celler betyder' });
    await expect(legend.getByText(/^Ledigt: kan bokas/)).toBeVisible();
    await expect(legend.getByText(/^Grått: kan inte bokas/)).toBeVisible();
  } finally {
    await swedish.close();
  }
  const legend = page.getByRole('list', { name: "What the day's cells mean" });
  await expect(legend.getByText(/^Free: can be booked/)).toBeVisible();
  await expect(legend.getByText(/^Grey: cannot be booked/)).toBeVisible();
});

test('who booked: the apartments toggle by role shows each held slot with its apartment, never a name, kept across links; and back', async ({ page, signedInAs }) => {
  // Seven page loads and an accessibility scan: more than the default minute on a shared machine.
  test.setTimeout(150_000);
  await signedInAs('manager');
  const overview = await firstSystem(page);
  const deviceId = overview.system.deviceId;
  const fixtures = await sandboxFixtures();
  await page.goto(`/systems/${deviceId}/building?view=week`);
  const toggle = page.getByRole('navigation', { name: 'What booked slots show' });
  await expect(toggle.getByRole('link', { name: 'Counts' })).toHaveAttribute('aria-current', 'true');
  await expect(page.getByRole('table').getByText(/ Apt \S+/)).toHaveCount(0);

  await toggle.getByRole('link', { name: 'Apartments' }).click();
  await expect(page).toHaveURL(/[?&]show=apartments/);
  await expect(toggle.getByRole('link', { name: 'Apartments' })).toHaveAttribute('aria-current', 'true');
  // Last week: the demo's bookings lie mostly in the past. The mode is kept by the period links.
  await page.getByRole('link', { name: 'Previous week' }).click();
  await expect(page).toHaveURL(/[?&]show=apartments/);
  const table = page.getByRole('table', { name: /^Free slots and the apartments that booked, every room in Week \d+/ });
  await expect(table).toBeVisible();
  // Each held slot a line of its day's cell: its time and its apartment ("Booked" without one).
  const lines = (await table.getByRole('cell').allTextContents()).flatMap((cell) => cell.split('\n')).filter((line) => /^\d{2}:\d{2}–/.test(line));
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(line).toMatch(/^\d{2}:\d{2}–\d{2}:\d{2}( next day)? (Apt \S+|Booked|Maintenance.*)( \(pending\))?$/);
  expect(lines.some((line) => / Apt \S+$/.test(line))).toBe(true);
  await expect(table.getByText(/^\d{2}:\d{2}–\d{2}:\d{2} Apt \S+/).first()).toBeVisible();
  // Never a resident's name or e-mail anywhere in the table.
  const text = (await table.textContent()) ?? '';
  for (const resident of fixtures.residents.filter((r) => r.deviceId === deviceId)) {
    expect(text).not.toContain(resident.name);
    expect(text).not.toContain(resident.email);
  }
  await expectNoSeriousA11yViolations(page, 'the building view with apartments');

  // The day view keeps the mode: a booked cell says only its apartment.
  await page.getByRole('navigation', { name: 'Day or week' }).getByRole('link', { name: 'Day' }).click();
  await expect(page).toHaveURL(/[?&]show=apartments/);
  await expect(page.getByRole('navigation', { name: 'What booked slots show' }).getByRole('link', { name: 'Apartments' })).toHaveAttribute('aria-current', 'true');

  // 375 px: the page does not overflow sideways in this mode either.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByRole('navigation', { name: 'Day or week' }).getByRole('link', { name: 'Week' }).click();
  await expect(page.getByRole('table', { name: /^Free slots and the apartments that booked/ })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  // And back: the default counts, no held lists, the address without show.
  await page.getByRole('navigation', { name: 'What booked slots show' }).getByRole('link', { name: 'Counts' }).click();
  await expect(page).not.toHaveURL(/show=/);
  await expect(page.getByRole('table', { name: /^Free slots of every room in Week \d+/ })).toBeVisible();
  await expect(page.getByRole('table').getByText(/ Apt \S+/)).toHaveCount(0);
});

/**
 * The words of `root` (any run of non-space characters: "apartment", "13:00–16:00") that the
 * browser laid over more than one line: a word broken inside, "apart / ment" or "13:00– / 16:00".
 */
async function brokenWords(page: Page, root: string): Promise<string[]> {
  return page.locator(root).first().evaluate((element) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      const parent = node.parentElement;
      if (!parent || parent.closest('.sr-only') || !parent.checkVisibility()) continue;
      for (const match of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });
}

test('the week fits a 1,366 px laptop in both modes for every system of the demo, no time or word cut; at 375 px no word breaks inside, in the day or the week, in English and Swedish', async ({ browser, page, signedInAs }) => {
  test.setTimeout(300_000);
  await signedInAs('manager');
  await firstSystem(page);
  const fixtures = await sandboxFixtures();
  const systems = fixtures.approvals[0]?.deviceIds ?? [];
  expect(systems.length).toBeGreaterThan(0);
  for (const deviceId of systems) {
    await expect
      .poll(async () => {
        const response = await page.request.get(`/api/systems/${deviceId}/overview`);
        return response.status() === 200 ? ((await response.json()) as { freshness: { status: string } }).freshness.status : `status ${response.status()}`;
      }, { timeout: 90_000 })
      .toBe('ready');
  }
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const swedish = await browser.newContext({ baseURL: BASE_URL, locale: 'sv-SE' });
  try {
    expect(await signInWithApi(swedish.request, DEMO.manager.email, DEMO.manager.password)).toBeNull();
    const svPage = await swedish.newPage();
    for (const [language, p] of [['en', page], ['sv', svPage]] as const) {
      await p.setViewportSize({ width: 1366, height: 768 });
      for (const deviceId of systems) {
        // Last week (the demo's bookings: many apartments per cell) and next week (many free slots).
        for (const [offset, show] of [[-7, 'apartments'], [7, 'default'], [7, 'apartments']] as const) {
          const where = `${language} ${deviceId} ${day(offset)} ${show}`;
          await p.goto(`/systems/${deviceId}/building?view=week&day=${day(offset)}${show === 'apartments' ? '&show=apartments' : ''}`);
          await expect(p.locator('html')).toHaveAttribute('lang', language);
          const table = p.locator('table[data-building]');
          await expect(table).toBeVisible();
          const fit = await table.evaluate((t) => {
            const box = t.parentElement!;
            // Every chip and line inside its own cell: none drawn over the next day's column.
            const spill = [...t.querySelectorAll('td a, td .held, td .counts')].filter((e) => e.getBoundingClientRect().right > e.closest('td')!.getBoundingClientRect().right + 0.5);
            return { scrollWidth: box.scrollWidth, clientWidth: box.clientWidth, spill: spill.map((e) => e.textContent) };
          });
          expect(fit.scrollWidth, where).toBeLessThanOrEqual(fit.clientWidth);
          expect(fit.spill, where).toEqual([]);
          expect(await p.evaluate(() => document.documentElement.scrollWidth), where).toBeLessThanOrEqual(1366);
          expect(await brokenWords(p, 'table[data-building]'), where).toEqual([]);
        }
      }
      // A phone: the table may scroll in its box, the page may not, and no word breaks inside.
      await p.setViewportSize({ width: 375, height: 800 });
      for (const deviceId of systems) {
        for (const query of ['view=day', 'view=day&show=apartments', `view=week&day=${day(-7)}&show=apartments`, `view=week&day=${day(7)}`]) {
          await p.goto(`/systems/${deviceId}/building?${query}`);
          await expect(p.locator('table[data-building]')).toBeVisible();
          expect(await p.evaluate(() => document.documentElement.scrollWidth), `${language} ${deviceId} ${query}`).toBeLessThanOrEqual(375);
          expect(await brokenWords(p, 'main'), `${language} ${deviceId} ${query} at 375 px`).toEqual([]);
        }
      }
    }
  } finally {
    await swedish.close();
  }
});
