import { randomUUID } from 'node:crypto';
import { BASE_URL, expect, firstSystem, test } from './utils';

// Issue 47, item 11: booking-rule limits were read with Number(), so "0x10" was 16 (and "1e1" 10).
// Whole numbers typed by people take the digits 0–9 only, with a sentence for anything else.
test('booking-rule limits and a system’s settings refuse 0x10 and 1e1 with a sentence, and keep what was there', async ({ page, signedInAs }) => {
  test.setTimeout(120_000);
  await signedInAs('admin');
  const { system } = await firstSystem(page);
  const deviceId = system.deviceId;

  // The rules form as a script would send it: the limit replaced in the form's data as it is sent
  // (a number field cannot be given "0x10" by typing; a script posting the action can).
  await page.goto(`/admin/systems/${deviceId}`);
  const card = page.getByRole('list', { name: 'Connected systems' }).getByRole('listitem').filter({ hasText: deviceId });
  await card.getByText('Booking rules', { exact: true }).click();
  const readBack = card.getByRole('list', { name: `As residents read them (${system.name})` });
  const rulesBefore = await readBack.getByRole('listitem').allTextContents();
  const form = card.getByRole('group', { name: 'New rule group' });
  await form.getByRole('group', { name: 'Rooms' }).getByRole('checkbox', { disabled: false }).first().check();
  for (const spelling of ['0x10', '1e1']) {
    await form.evaluate((fieldset, value) => {
      const element = fieldset.closest('form')!;
      const replace = (event: FormDataEvent) => event.formData.set('maxFuture', value);
      element.addEventListener('formdata', replace, { once: true });
    }, spelling);
    await card.getByRole('button', { name: `Add the group (${system.name})` }).click();
    await expect(card.getByRole('alert').filter({ hasText: 'rule group is not valid' })).toHaveText(
      'The rule group is not valid: choose at least one room, and give each limit as a whole number within its range, or leave it empty for no limit.',
    );
    await expect(readBack.getByRole('listitem')).toHaveText(rulesBefore);
  }

  // The system's own settings over the API: a 422 with the field's sentence, and nothing changed.
  const before = (await (await page.request.get(`/api/systems/${deviceId}`)).json()) as { system: { bookingQuota: number; bookingHorizonDays: number } };
  for (const body of [{ bookingQuota: '0x10' }, { bookingHorizonDays: '1e1' }, { bookingQuota: true }]) {
    const answer = await page.request.patch(`/api/systems/${deviceId}`, { data: body, headers: { origin: BASE_URL, 'idempotency-key': `e2e-digits-${randomUUID()}` } });
    expect(answer.status(), JSON.stringify(body)).toBe(422);
    expect(((await answer.json()) as { error: { message: string } }).error.message, JSON.stringify(body)).toMatch(/must be a whole number of (bookings|days)/);
  }
  const after = (await (await page.request.get(`/api/systems/${deviceId}`)).json()) as typeof before;
  expect(after.system.bookingQuota).toBe(before.system.bookingQuota);
  expect(after.system.bookingHorizonDays).toBe(before.system.bookingHorizonDays);
});
