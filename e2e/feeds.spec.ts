import AxeBuilder from '@axe-core/playwright';
import { expect, firstSystem, test } from './utils';

test('a room calendar feed: create it, copy its address, read it without a session, revoke it, the old address 404s', async ({ page, context, request, signedInAs }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signedInAs('manager');
  const overview = await firstSystem(page);
  const resource = overview.resources[0]!;
  await page.goto(`/systems/${overview.system.deviceId}/resources/${resource.id}`);

  const section = page.getByRole('region', { name: 'Calendar feed' });
  await section.getByRole('button', { name: 'Create calendar feed' }).click();
  const field = section.getByRole('textbox', { name: 'Feed address' });
  await expect(field).toHaveValue(/\/feeds\/[A-Za-z0-9_-]{43}\.ics$/);
  await expect(field).toHaveAttribute('readonly', '');
  const url = await field.inputValue();
  await expect(section.getByText('This address is shown only now.')).toBeVisible();
  await expect(section.getByRole('listitem').first()).toContainText('by ');

  await section.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(section.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const results = await new AxeBuilder({ page }).include('[data-testid="calendar-feed"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `the feed section in ${colorScheme} mode`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // The calendar app: no session, only the address.
  const feed = await request.get(url, { headers: { cookie: '' } });
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  expect(feed.headers()['cache-control']).toBe('private, max-age=300');
  const text = await feed.text();
  expect(text).toContain('BEGIN:VCALENDAR');
  expect(text).toContain('BEGIN:VTIMEZONE');
  expect(text).toMatch(/BEGIN:VEVENT/);
  expect(text).toMatch(/UID:[0-9a-f-]{36}@laundry-portal/);

  await section.getByRole('button', { name: /^Revoke the feed created / }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Revoke the calendar feed?' });
  await dialog.getByRole('button', { name: 'Revoke feed' }).click();
  await expect(section.getByRole('status').filter({ hasText: 'The feed was revoked.' })).toBeVisible();
  await expect(field).toHaveCount(0);

  const gone = await request.get(url, { headers: { cookie: '' } });
  expect(gone.status()).toBe(404);
  const unknown = await request.get(url.replace(/[A-Za-z0-9_-]{43}\.ics$/, `${'B'.repeat(43)}.ics`));
  expect(unknown.status()).toBe(404);
  expect(await gone.text()).toBe(await unknown.text());
});
