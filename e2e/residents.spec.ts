import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, sampleResidents, test, type SandboxResident } from './utils';

async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Find a resident' }).fill(text);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

function resultFor(page: Page, resident: SandboxResident) {
  return page.getByRole('list', { name: 'Residents' }).getByRole('listitem', { name: resident.name }).filter({ hasText: resident.email });
}

test('the manager finds a resident by apartment, by an e-mail address with "+", and by reference id', async ({ page, signedInAs, request }) => {
  const { withPlus, oddApartment, systemName } = await sampleResidents(request);
  await signedInAs('manager');
  await page.goto('/residents');
  await expect(page.getByRole('heading', { level: 1, name: 'Residents' })).toBeVisible();

  await search(page, withPlus.email);
  await expect(page).toHaveURL(`/residents?q=${encodeURIComponent(withPlus.email)}`);
  const byEmail = resultFor(page, withPlus);
  await expect(byEmail).toHaveCount(1, { timeout: 20_000 });
  await expect(byEmail.getByText(withPlus.apartmentId, { exact: true })).toBeVisible();
  await expect(byEmail.getByText(systemName(withPlus.deviceId))).toBeVisible();
  await expect(byEmail.getByRole('link', { name: /^Book .+ for / })).toHaveCount(withPlus.resourceIds.length);

  await search(page, oddApartment.apartmentId);
  const byApartment = resultFor(page, oddApartment);
  await expect(byApartment).toHaveCount(1, { timeout: 20_000 });
  await expect(byApartment.getByText(oddApartment.apartmentId, { exact: true })).toBeVisible();

  await search(page, oddApartment.referenceId);
  await expect(resultFor(page, oddApartment)).toHaveCount(1, { timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(`found for “${oddApartment.referenceId}”`) })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the residents page with results');

  // Straight from a result to booking for that resident.
  const book = resultFor(page, oddApartment).getByRole('link', { name: /^Book .+ for / }).first();
  const href = (await book.getAttribute('href')) ?? '';
  expect(href).toMatch(new RegExp(`^/systems/${oddApartment.deviceId}/resources/[0-9a-f-]{36}\\?resident=${oddApartment.userId}$`));
  await book.click();
  await expect(page).toHaveURL(new RegExp(`resident=${oddApartment.userId}`));
  await expect(page.getByRole('navigation', { name: 'Week' })).toBeVisible();
});

test('a search lands in the URL, a reload keeps it; residents of other systems stay hidden; bad input gets a clear 422', async ({ page, signedInAs, request }) => {
  const { withPlus, other } = await sampleResidents(request);
  await signedInAs('manager');
  await page.goto(`/residents?q=${encodeURIComponent(withPlus.email)}`);
  await expect(resultFor(page, withPlus)).toHaveCount(1);
  await expect(page.getByRole('searchbox', { name: 'Find a resident' })).toHaveValue(withPlus.email);

  // A resident of a system the manager does not manage is not found.
  await search(page, other.email);
  await expect(page.getByRole('heading', { level: 2, name: `No residents found for “${other.email}”` })).toBeVisible({ timeout: 20_000 });

  await search(page, '   ');
  await expect(page.getByRole('alert').filter({ hasText: 'Type an apartment number' })).toBeVisible();

  const empty = await page.request.get('/api/residents?q=%20');
  expect(empty.status()).toBe(422);
  expect(((await empty.json()) as { error: { message: string } }).error.message).toBe('Type an apartment number, e-mail address or reference id.');
  const long = await page.request.get(`/api/residents?q=${'x'.repeat(255)}`);
  expect(long.status()).toBe(422);
  const ok = await page.request.get(`/api/residents?q=${encodeURIComponent(withPlus.referenceId)}`);
  expect(ok.status()).toBe(200);
  expect(ok.headers()['cache-control']).toBe('no-store');
  const body = (await ok.json()) as { residents: { userId: string; resources: { id: string; name: string }[] }[] };
  expect(body.residents.map((r) => r.userId)).toContain(withPlus.userId);
  expect((await request.get('/api/residents?q=1203')).status()).toBe(401);

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/residents?q=${encodeURIComponent(withPlus.email)}`);
  await expect(resultFor(page, withPlus)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoSeriousA11yViolations(page, 'the residents page at 375 px');
});
