import { expectNoSeriousA11yViolations } from './a11y';
import { expect, firstSystem, sandboxFixtures, test } from './utils';

const SLOT_NAME = /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) \d{1,2} [A-Z][a-z]+, \d\d:\d\d–\d\d:\d\d( next day)?, (free|booked by .+|was booked by .+|used by .+|maintenance.*|past|free, beyond the booking horizon)(, now|, past)?$/;

test('the manager opens a system and sees the heatmap and each resource’s occupancy and status', async ({ page, signedInAs }) => {
  await signedInAs('manager');
  const overview = await firstSystem(page);
  await page.goto('/systems');
  await page.getByRole('link', { name: overview.system.name }).click();
  await expect(page.getByRole('heading', { level: 1, name: overview.system.name })).toBeVisible();
  await expect(page.getByText(/Updated \d+ (seconds?|minutes?) ago/)).toBeVisible();
  // The promise about bookings made at the door panel: a small system is re-read every window.
  await expect(page.getByText(/^Changes made outside the portal show within about [12] minutes?\.$/)).toBeVisible();

  const list = page.getByRole('list', { name: 'Resources' });
  await expect(list.getByRole('listitem')).toHaveCount(overview.resources.length);
  for (const resource of overview.resources) {
    const meter = list.getByRole('meter', { name: `${resource.name}: booked this week` });
    await expect(meter).toBeVisible();
    await expect(meter).toHaveAttribute('aria-valuetext', /(\d+% booked \(\d+ of \d+ slots? booked|no bookable slots)/);
    const card = list.getByRole('listitem').filter({ has: page.getByRole('link', { name: resource.name, exact: true }) });
    await expect(card.getByText(/^Now: (Free|In use until .+|Maintenance until .+)$/)).toHaveCount(1);
  }

  const heatmap = page.getByRole('figure', { name: 'Booking rate, last 8 weeks' });
  await expect(heatmap).toBeVisible();
  await expect(heatmap.getByRole('table')).toBeVisible();
  await expect(heatmap.getByRole('columnheader', { name: 'Monday' })).toBeVisible();
  await expect(heatmap.getByRole('list', { name: 'Legend' }).getByRole('listitem')).toHaveCount(6);
  await expect(heatmap.getByText(/^Busiest times in the last 8 weeks: /)).toBeVisible();
  // Cells carry a colour level from the data, not one flat colour.
  const levels = await heatmap.locator('td[data-level]').evaluateAll((cells) => new Set(cells.map((c) => c.getAttribute('data-level'))).size);
  expect(levels).toBeGreaterThan(1);

  await expectNoSeriousA11yViolations(page, 'the system page');
});

test('the system overview API checks its input and access, and never caches', async ({ page, signedInAs, request }) => {
  const fixtures = await sandboxFixtures();
  const mine = fixtures.approvals[0]?.deviceIds[0] ?? '';
  const foreign = fixtures.approvals[1]?.deviceIds[0] ?? '';
  expect((await request.get(`/api/systems/${mine}/overview`)).status()).toBe(401);
  await signedInAs('manager');
  const ok = await page.request.get(`/api/systems/${mine}/overview`);
  expect(ok.status()).toBe(200);
  expect(ok.headers()['cache-control']).toBe('no-store');
  const body = await ok.text();
  expect(body).not.toMatch(/apiKey|clientSecret|access_token/i);
  expect((await page.request.get('/api/systems/not-a-uuid/overview')).status()).toBe(400);
  const denied = await page.request.get(`/api/systems/${foreign}/overview`);
  expect(denied.status()).toBe(403);
  // The page answers 403 too, with the portal's own page (e2e/everyday.spec.ts).
  expect((await page.goto(`/systems/${foreign}`))?.status()).toBe(403);
  await expect(page.getByRole('heading', { level: 1, name: 'You do not have access to this system' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: /Brf/ })).toHaveCount(0);
});

test('the resource page: week grid, next week and back in the URL, keyboard, slot panel, 375 px, axe', async ({ page, signedInAs }) => {
  await signedInAs('manager');
  const overview = await firstSystem(page);
  const resource = overview.resources[0]!;
  await page.goto(`/systems/${overview.system.deviceId}`);
  await page.getByRole('list', { name: 'Resources' }).getByRole('link', { name: resource.name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: resource.name })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/systems/${overview.system.deviceId}/resources/${resource.id}$`));

  const weekNav = page.getByRole('navigation', { name: 'Week' });
  const thisWeek = (await weekNav.getByText(/^Week \d+, /).textContent()) ?? '';
  const grid = page.getByRole('region', { name: new RegExp(`^${resource.name}, Week`) });
  const slots = grid.getByRole('button');
  expect(await slots.count()).toBeGreaterThan(0);
  for (const name of await slots.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? ''))) {
    expect(name).toMatch(SLOT_NAME);
    expect(name).not.toContain('@');
  }
  await expect(grid.locator('[aria-current="date"]')).toHaveCount(1);
  await expect(page.getByText(/^Bookable until /)).toBeVisible();

  // Next week and back, kept in the URL.
  await weekNav.getByRole('link', { name: 'Next week' }).click();
  await expect(page).toHaveURL(/\?week=\d{4}-W\d{2}$/);
  const next = new URL(page.url()).searchParams.get('week');
  await expect(weekNav.getByText(/^Week \d+, /)).not.toHaveText(thisWeek);
  await expect(grid.locator('[aria-current="date"]')).toHaveCount(0);
  await expect(weekNav.getByRole('link', { name: 'This week' })).toBeVisible();
  await page.reload();
  await expect(weekNav.getByText(/^Week \d+, /)).not.toHaveText(thisWeek);
  await weekNav.getByRole('link', { name: 'Previous week' }).click();
  await expect(page).not.toHaveURL(new RegExp(`week=${next}`));
  await expect(weekNav.getByText(/^Week \d+, /)).toHaveText(thisWeek);
  await expect(grid.locator('[aria-current="date"]')).toHaveCount(1);

  // Keyboard: one Tab stop in the grid, arrows move between slots, Enter opens the panel.
  const first = grid.locator('button[tabindex="0"]');
  await expect(first).toHaveCount(1);
  await first.focus();
  const before = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
  for (const key of ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp']) {
    await page.keyboard.press(key);
    const now = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    expect(now).toMatch(SLOT_NAME);
  }
  await page.keyboard.press('ArrowRight');
  const focused = (await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))) ?? '';
  expect(typeof before).toBe('string');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const [day, range] = focused.split(', ');
  // The panel's title; a free slot's booking form adds a heading of its own below it.
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText(`${day}, ${range}`);
  await expectNoSeriousA11yViolations(page, 'the resource page with the slot panel open');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // A bad week in the API is a clear 400; in the page URL it shows this week and says so.
  const bad = await page.request.get(`/api/systems/${overview.system.deviceId}/resources/${resource.id}/week?week=2026-W99`);
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { error: { message: string } }).error.message).toContain('Week 2026 has weeks 01 to');
  // A year no time-zone arithmetic reaches was a 500.
  const far = await page.request.get(`/api/systems/${overview.system.deviceId}/resources/${resource.id}/week?week=9999-W52`);
  expect(far.status()).toBe(400);
  expect(((await far.json()) as { error: { message: string } }).error.message).toContain('Week year must be from 1970 to 2199');

  await page.goto(`/systems/${overview.system.deviceId}/resources/${resource.id}?week=2026-W99`);
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid week in the address.' })).toContainText('Week 2026 has weeks 01 to 53, got 99. Showing this week instead.');
  await expect(weekNav.getByText(/^Week \d+, /)).toHaveText(thisWeek);
  await expect(grid.locator('[aria-current="date"]')).toHaveCount(1);

  // "Go to date" jumps to the week holding that date; a past week does not speak of the horizon.
  await page.getByLabel('Go to date').fill('2026-03-04');
  await page.getByRole('button', { name: 'Show week' }).click();
  await expect(page).toHaveURL(/\?week=2026-W10$/);
  await expect(weekNav.getByText(/^Week \d+, /)).toHaveText('Week 10, 2–8 March 2026');
  await expect(page.getByText(/^Bookable until /)).toHaveCount(0);
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid week' })).toHaveCount(0);
  // Two weeks back, where the demo data has bookings.
  await page.getByLabel('Go to date').fill(new Date(Date.now() - 14 * 86_400_000).toISOString().slice(0, 10));
  await page.getByRole('button', { name: 'Show week' }).click();
  await expect(page).not.toHaveURL(/\?week=2026-W10$/);
  await expect(page.getByText(/^Bookable until /)).toHaveCount(0);
  await expect(grid.getByRole('button', { name: /, (was booked|used) by / }).first()).toBeVisible();
  for (const name of await grid.getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? ''))) {
    // Past bookings say so in words: never "booked by" in a past week.
    expect(name).not.toMatch(/, booked by /);
  }

  await expectNoSeriousA11yViolations(page, 'the resource page');

  // 375 px: days stack, nothing scrolls sideways, slots stay reachable.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: resource.name })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const slot = grid.getByRole('button').first();
  await slot.scrollIntoViewIfNeeded();
  const box = await slot.boundingBox();
  expect(box && box.width >= 300 && box.height >= 44).toBe(true);
  await page.goto(`/systems/${overview.system.deviceId}`);
  await expect(page.getByRole('list', { name: 'Resources' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});
