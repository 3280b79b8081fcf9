import { expectNoSeriousA11yViolations } from './a11y';
import { BASE_URL, expect, firstSystem, test, weekView } from './utils';

// Issue 48: a saved rule shapes the grid before anyone presses Book.
test('a saved "only today or tomorrow" rule marks next week\'s slots not bookable with its sentence, and moves Bookable until (issue 48)', async ({ page, context, signedInAs }) => {
  test.setTimeout(180_000);
  await signedInAs('admin');
  expect((await context.request.put('/api/me/locale', { data: { locale: 'en' }, headers: { origin: BASE_URL, 'idempotency-key': `rules-grid-locale-${Date.now()}` } })).ok()).toBe(true);
  const overview = await firstSystem(page);
  const { deviceId, name } = overview.system;
  const room = overview.resources[overview.resources.length - 1]!;
  const next = (await weekView(page.request, deviceId, room.id)).nav.next;
  const weekUrl = `/systems/${deviceId}/resources/${room.id}?week=${next}`;
  const bookableUntil = page.getByText(/^Bookable until /);
  const ruleSentence = `${room.name} can be booked only for today or tomorrow`;

  await page.goto(weekUrl);
  await expect(bookableUntil).toBeVisible();
  const before = await bookableUntil.innerText();
  // Next week has free slots that can be booked (the system's horizon is four weeks).
  await expect(page.getByRole('button', { name: /, free$/ }).first()).toBeVisible();

  await page.goto(`/admin/systems/${deviceId}`);
  const card = page.getByRole('list', { name: 'Connected systems' }).getByRole('listitem').filter({ hasText: deviceId });
  await card.getByText('Booking rules', { exact: true }).click();
  const removeButtons = card.getByRole('button', { name: new RegExp(`^Remove group \\d+ \\(${name}\\)$`) });
  const groupsBefore = await removeButtons.count();
  try {
    const form = card.getByRole('group', { name: 'New rule group' });
    const box = form.getByRole('group', { name: 'Rooms' }).getByRole('checkbox', { name: room.name, exact: true });
    await box.check();
    await form.getByLabel('Days ahead (0 = today only)', { exact: true }).fill('1');
    await card.getByRole('button', { name: `Add the group (${name})` }).click();
    await expect(card.getByRole('status').filter({ hasText: 'booking rules' })).toHaveText(`Saved the booking rules of ${name}.`);

    await page.goto(weekUrl);
    // No slot of next week says "free" alone: each names the rule, on hover too.
    await expect(page.getByRole('button', { name: /, free$/ })).toHaveCount(0);
    const forbidden = page.getByRole('button', { name: new RegExp(`, free, not bookable yet: ${ruleSentence}$`) });
    await expect(forbidden.first()).toBeVisible();
    await expect(forbidden.first()).toHaveAttribute('title', `This slot cannot be booked yet: ${ruleSentence}.`);
    // Bookable until: tomorrow's last slot, not four weeks on.
    await expect(bookableUntil).not.toHaveText(before);
    await forbidden.first().click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`This slot cannot be booked yet: ${ruleSentence}.`);
    await expect(dialog).not.toContainText('This slot can be booked.');
    await expect(dialog.getByRole('button', { name: 'Book', exact: true })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, 'a slot a rule forbids, in its dialog');
  } finally {
    // Later specs expect the demo's rules: remove the group again.
    await page.goto(`/admin/systems/${deviceId}`);
    await card.getByText('Booking rules', { exact: true }).click();
    for (let left = await removeButtons.count(); left > groupsBefore; left--) {
      await card.getByRole('button', { name: `Remove group ${left} (${name})` }).click();
      await page.getByRole('dialog').getByRole('button', { name: `Remove group ${left}` }).click();
      await expect(removeButtons).toHaveCount(left - 1);
    }
  }
});
