import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { BASE_URL, expect, firstSystem, sandboxFixtures, test, weekView, type WeekSlot } from './utils';

/** A week slot as the API gives it, with the fields this spec reads. */
type Slot = WeekSlot & { startMs: number; endMs: number; date: string; startLabel: string; endLabel: string; endsNextDay: boolean };

const REASON = 'Pipe repair (e2e)';

/**
 * Two back-to-back bookable slots of one afternoon-or-so (one local day) in a room of the demo
 * manager's first system, a week or more ahead, booked for residents through the API.
 */
async function bookTwoSlots(request: APIRequestContext, deviceId: string) {
  const fixtures = await sandboxFixtures();
  const residents = fixtures.residents.filter((r) => r.deviceId === deviceId);
  const resourceIds = [...new Set(residents.flatMap((r) => r.resourceIds))];
  for (const resourceId of resourceIds) {
    const first = await weekView(request, deviceId, resourceId);
    const view = await weekView(request, deviceId, resourceId, first.nav.next);
    const slots = view.slots as Slot[];
    for (let i = 0; i + 1 < slots.length; i++) {
      const [a, b] = [slots[i]!, slots[i + 1]!];
      if (!(a.bookable && b.bookable && b.startMs === a.endMs && a.date === b.date && !b.endsNextDay && b.endLabel !== '00:00')) continue;
      const booked: string[] = [];
      for (const slot of [a, b]) {
        for (const resident of residents.filter((r) => r.resourceIds.includes(resourceId))) {
          const response = await request.post('/api/reservations', {
            data: { deviceId, resourceId, residentUserId: resident.userId, startTime: slot.startTime, endTime: slot.endTime },
            headers: { 'idempotency-key': `e2e-closure-${randomUUID()}`, origin: BASE_URL },
          });
          if (response.status() === 202) {
            booked.push(resident.apartmentId);
            break;
          }
        }
      }
      if (booked.length !== 2) continue;
      // Both booked in the service and the portal's copy.
      await expect
        .poll(async () => {
          const now = await weekView(request, deviceId, resourceId, view.week.key);
          return (now.slots as Slot[]).filter((s) => (s.startMs === a.startMs || s.startMs === b.startMs) && s.state === 'booked').length;
        }, { timeout: 30_000 })
        .toBe(2);
      return { resourceId, resourceName: view.resource?.name ?? '', week: view.week.key, a, b };
    }
  }
  throw new Error('no two free back-to-back slots in the demo data');
}

test('a manager closes a room for an afternoon: the preview shows its two bookings, both are cancelled live, and the grid shows the slots closed', async ({ page, signedInAs }) => {
  test.setTimeout(180_000);
  await signedInAs('manager');
  const { system } = await firstSystem(page);
  const { resourceId, resourceName, week, a, b } = await bookTwoSlots(page.request, system.deviceId);

  await page.goto(`/systems/${system.deviceId}`);
  await page.getByRole('link', { name: 'Close rooms' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Room closures in ${system.name}` })).toBeVisible();
  await expect(page.getByRole('note')).toContainText('Bookings made outside the portal (door panels, resident apps) are not blocked');

  await page.getByRole('checkbox', { name: resourceName, exact: true }).check();
  await page.getByLabel('From', { exact: true }).fill(`${a.date}T${a.startLabel}`);
  await page.getByLabel('To', { exact: true }).fill(`${b.date}T${b.endLabel}`);
  await page.getByLabel('Reason', { exact: true }).fill(REASON);
  await page.getByRole('button', { name: 'Show affected bookings' }).click();

  const preview = page.getByRole('table', { name: /^Bookings in this period/ });
  await expect(preview.getByRole('row').filter({ hasText: 'Will be cancelled' })).toHaveCount(2);
  await expectNoSeriousA11yViolations(page, 'the closures page with a preview');

  await page.getByRole('button', { name: 'Close and cancel 2 bookings' }).click();
  const progress = page.getByRole('progressbar', { name: 'Cancellations of the closure' });
  await expect(progress).toHaveAttribute('aria-valuemax', '2');
  await expect(progress).toHaveAttribute('aria-valuetext', '2 of 2 cancelled', { timeout: 30_000 });
  await expect(progress).toHaveAttribute('aria-valuenow', '2');
  await expect(page.getByText('2 of 2 cancelled')).toBeVisible();
  const closure = page.getByRole('article', { name: new RegExp(`^${resourceName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} closed .*: ${REASON.replace(/[()]/g, '\\$&')}$`) });
  await expect(closure.getByText('Cancelled', { exact: true })).toHaveCount(2);
  await expectNoSeriousA11yViolations(page, 'the closures page with a closure');

  // Each resident is told: the E-mails page (the dev view: nothing leaves the machine) keeps the
  // closure's two messages, each with the reason.
  const closureMail = (slot: { startLabel: string; endLabel: string }) =>
    page.getByRole('row').filter({ hasText: 'Cancelled (closure)' }).filter({ hasText: `${resourceName}, ` }).filter({ hasText: `from ${slot.startLabel} to ${slot.endLabel}` }).first();
  await expect(async () => {
    await page.goto(`/emails?status=captured&deviceId=${system.deviceId}`);
    await expect(closureMail(a)).toBeVisible({ timeout: 1_000 });
    await expect(closureMail(b)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await closureMail(a).getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'E-mail' })).toBeVisible();
  await expect(page.getByTestId('mail-text')).toContainText(REASON);
  const ics = await page.request.get((await page.getByRole('link', { name: 'Download calendar file (.ics)' }).getAttribute('href')) ?? '');
  expect(await ics.text()).toContain('METHOD:CANCEL');

  // The grid: both slots closed with the reason, and no booking there.
  await page.goto(`/systems/${system.deviceId}/resources/${resourceId}?week=${week}`);
  const closed = page.getByRole('button', { name: new RegExp(`, Closed: ${REASON.replace(/[()]/g, '\\$&')}$`) });
  await expect(closed).toHaveCount(2);
  await closed.first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Closed: ${REASON}`);
  await expect(dialog.getByRole('button', { name: 'Book', exact: true })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'a closed slot');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();

  // Lifted: the rooms may be booked again (the cancelled bookings stay cancelled).
  await page.goto(`/systems/${system.deviceId}/closures`);
  await page.getByRole('button', { name: `Lift: ${REASON}` }).click();
  await expect(page.getByText('The bookings it cancelled are not restored.')).toBeVisible();
  await page.getByRole('button', { name: 'Lift closure' }).click();
  await expect(page.getByText('No rooms are closed now or later.')).toBeVisible();
});
