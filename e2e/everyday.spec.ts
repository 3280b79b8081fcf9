import { expectNoSeriousA11yViolations } from './a11y';
import { expect, firstSystem, sandboxFixtures, test } from './utils';

test('an unknown address is a friendly 404 in the portal frame, with a way back', async ({ page, signedInAs }) => {
  await signedInAs('manager');
  const response = await page.goto('/no-such-page/anywhere');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Systems' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the not-found page');
  await page.getByRole('link', { name: 'Back to your systems' }).click();
  await expect(page).toHaveURL(/\/systems$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Systems' })).toBeVisible();
});

test("another manager's system is a 403 page with a way back, as the API answers; a malformed id is a 404", async ({ page, signedInAs }) => {
  await signedInAs('manager');
  const fixtures = await sandboxFixtures();
  const foreign = fixtures.approvals[1]?.deviceIds[0];
  if (!foreign) throw new Error('the demo preset should have a second approval');
  expect((await page.request.get(`/api/systems/${foreign}`)).status()).toBe(403);

  for (const path of [`/systems/${foreign}`, `/systems/${foreign}/resources/00000000-0000-4000-8000-000000000000`]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByRole('heading', { level: 1, name: 'You do not have access to this system' })).toBeVisible();
    await expect(page.getByText('This page could not be found')).toHaveCount(0);
  }
  await expectNoSeriousA11yViolations(page, 'the forbidden page');
  await page.getByRole('link', { name: 'Back to your systems' }).click();
  await expect(page).toHaveURL(/\/systems$/);
  await expect(page.getByRole('list', { name: 'Your systems' })).toBeVisible();

  const malformed = await page.goto('/systems/not-a-system');
  expect(malformed?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
});

test('on a 375 px phone the header is one compact row; the navigation is behind the Menu button', async ({ page, signedInAs }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signedInAs('manager');
  await page.goto('/systems');
  const header = page.locator('header[data-shell="header"]');
  const height = (await header.boundingBox())?.height ?? Infinity;
  expect(height).toBeLessThan(100);

  const menu = page.getByRole('button', { name: 'Menu' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['Systems', 'Residents', 'Requests']) await expect(nav.getByRole('link', { name })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoSeriousA11yViolations(page, 'the open menu at 375 px');

  await nav.getByRole('link', { name: 'Residents' }).click();
  await expect(page).toHaveURL(/\/residents$/);
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav).toBeHidden();

  // From the sm breakpoint on, no Menu button: the navigation is always there.
  await page.setViewportSize({ width: 1024, height: 800 });
  await expect(menu).toBeHidden();
  await expect(nav.getByRole('link', { name: 'Systems' })).toBeVisible();
});

test('pages load without console errors or failed requests (favicon included)', async ({ page, signedInAs }) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
  });
  await page.goto('/sign-in');
  await page.waitForLoadState('networkidle');
  await signedInAs('manager');
  const overview = await firstSystem(page);
  for (const path of ['/systems', `/systems/${overview.system.deviceId}`, `/systems/${overview.system.deviceId}/resources/${overview.resources[0]!.id}`, '/residents', '/requests']) {
    await page.goto(path);
    await page.waitForLoadState('load');
    await page.waitForTimeout(500);
  }
  expect(problems).toEqual([]);
  expect((await page.request.get('/favicon.ico')).status()).toBe(200);
});

test('printing the week leaves out the navigation, buttons and controls; the slots stay', async ({ page, signedInAs }) => {
  await signedInAs('manager');
  const overview = await firstSystem(page);
  const resource = overview.resources[0]!;
  await page.goto(`/systems/${overview.system.deviceId}/resources/${resource.id}`);
  const grid = page.getByRole('region', { name: new RegExp(`^${resource.name}, Week`) });
  await expect(grid.getByRole('button').first()).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeHidden();
  await expect(page.getByRole('link', { name: 'Next week' })).toBeHidden();
  await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeHidden();
  const visibleChrome = await page.locator('main button:not([data-slot-id]), main input, main select, nav a').evaluateAll(
    (elements) => elements.filter((e) => getComputedStyle(e).display !== 'none' && (e as HTMLElement).offsetParent !== null).length,
  );
  expect(visibleChrome).toBe(0);
  await expect(page.getByRole('heading', { level: 1, name: resource.name })).toBeVisible();
  await expect(grid.getByRole('button').first()).toBeVisible();
  await page.emulateMedia({ media: 'screen' });
});

test("the keyboard focus ring on a slot is not the today ring: dashed, in another colour", async ({ page, signedInAs }) => {
  await signedInAs('manager');
  const overview = await firstSystem(page);
  const resource = overview.resources[0]!;
  await page.goto(`/systems/${overview.system.deviceId}/resources/${resource.id}`);
  const grid = page.getByRole('region', { name: new RegExp(`^${resource.name}, Week`) });
  const today = grid.locator('[role="group"]:has([aria-current="date"])');
  await expect(today).toHaveCount(1);
  const todayRing = await today.evaluate((e) => ({ boxShadow: getComputedStyle(e).boxShadow, outlineStyle: getComputedStyle(e).outlineStyle }));
  expect(todayRing.boxShadow).toContain('rgb(36, 89, 184)');

  // Into the grid with the keyboard (roving focus), then one step along it.
  const active = grid.locator('[data-slot-id][tabindex="0"]');
  await active.focus();
  await page.keyboard.press('ArrowDown');
  const focus = await page.evaluate(() => {
    const e = document.activeElement as HTMLElement;
    const style = getComputedStyle(e);
    return { slot: e.hasAttribute('data-slot-id'), visible: e.matches(':focus-visible'), outlineStyle: style.outlineStyle, outlineColor: style.outlineColor, outlineWidth: style.outlineWidth };
  });
  expect(focus).toMatchObject({ slot: true, visible: true, outlineStyle: 'dashed', outlineWidth: '3px' });
  expect(focus.outlineColor).not.toBe('rgb(36, 89, 184)');
  expect(todayRing.outlineStyle).not.toBe('dashed');
});
