import { expectNoSeriousA11yViolations } from './a11y';
import { expect, test } from './utils';

const REQUESTS = 'Booking requests, their events and closures';

// Admin → Retention (issue 37): each class's period and where it comes from; a bad period is
// refused with a sentence and stays in the field; a change is audited from → to. Restores the default.
test('an admin sets how long booking requests are kept; a bad period is refused with a sentence', async ({ page, signedInAs }) => {
  await signedInAs('admin');
  await page.goto('/admin');
  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Retention' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Retention' })).toBeVisible();
  const card = page.getByRole('region', { name: REQUESTS });
  await expect(card).toContainText('Kept for 13 months (the default)');
  const field = card.getByRole('textbox', { name: `Months for ${REQUESTS}` });
  const save = card.getByRole('button', { name: `Save the period of ${REQUESTS}` });

  await field.fill('0');
  await save.click();
  await expect(card.getByRole('alert')).toHaveText('Enter a whole number of months from 1 to 120, or leave the field empty for the portal’s default.');
  await expect(field).toHaveValue('0');

  try {
    await field.fill('6');
    await save.click();
    await expect(card.getByRole('status')).toHaveText(`${REQUESTS}: now kept for 6 months (set here).`);
    await page.reload();
    await expect(page.getByRole('region', { name: REQUESTS })).toContainText('Kept for 6 months (set here)');
    await expectNoSeriousA11yViolations(page, 'the retention page');

    await page.goto('/admin/audit');
    await expect(page.getByRole('cell', { name: 'Changed the retention period of booking requests, their events and closures: 13 months → 6 months.' }).first()).toBeVisible();
  } finally {
    // Back to the default for the specs after this one.
    await page.goto('/admin/retention');
    const restore = page.getByRole('region', { name: REQUESTS });
    await restore.getByRole('textbox', { name: `Months for ${REQUESTS}` }).fill('');
    await restore.getByRole('button', { name: `Save the period of ${REQUESTS}` }).click();
    await expect(restore.getByRole('status')).toHaveText(`${REQUESTS}: now kept for 13 months (the default).`);
  }
});

test('a manager cannot open the retention page', async ({ page, signedInAs }) => {
  await signedInAs('manager');
  await page.goto('/admin/retention');
  await expect(page.getByRole('heading', { level: 1, name: 'Retention' })).toHaveCount(0);
});
