import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { BASE_URL, expect, sandboxControl, sandboxFixtures, test } from './utils';

/** Disconnects a system through the admin page (its mirror goes with it), as an admin would. */
async function disconnect(page: Page, deviceId: string, name: string) {
  await page.goto(`/admin/systems/${deviceId}`);
  const card = page.getByRole('list', { name: 'Connected systems' }).getByRole('listitem').filter({ hasText: deviceId });
  if ((await card.count()) === 0) return;
  await card.getByRole('button', { name: `Disconnect ${name}` }).click();
  await page.getByRole('dialog', { name: `Disconnect ${name}?` }).getByRole('button', { name: `Disconnect ${name}` }).click();
  await expect(card).toHaveCount(0);
}

test('a cold system shows its rooms and a loading grid with a progress bar before its reservations are in, then the full grid', async ({ page, context, signedInAs }) => {
  test.setTimeout(180_000);
  // The second approval's system is not connected in demo mode: connected here, it is a system the
  // portal has never loaded.
  const fixtures = await sandboxFixtures();
  const approval = fixtures.approvals[1];
  const deviceId = approval?.deviceIds[0];
  if (!approval || !deviceId) throw new Error('the demo preset should have a second approval');
  const name = fixtures.systems.find((s) => s.deviceId === deviceId)?.name ?? '';
  await signedInAs('admin');
  // Every page of its reservations takes 2.5 s and holds at most 50: the load takes long enough to
  // watch (the service timeout of the e2e server is 4 s). Resources and schedules come at once.
  const slow = await sandboxControl('PUT', '/sandbox/_sandbox/faults', { hang: { ms: 2_500, pathPrefix: `/v1/reservations/${deviceId}/all` }, shapes: { shortPages: true } });
  expect(slow.status).toBe(200);
  try {
    const connected = await context.request.post('/api/admin/systems', { data: { approvalId: approval.approvalId }, headers: { origin: BASE_URL } });
    expect(connected.status()).toBe(201);

    // The rooms list: every room at once, its occupancy marked as still being read.
    await page.goto(`/systems/${deviceId}`);
    const rooms = page.getByRole('list', { name: 'Resources' });
    await expect(rooms.getByRole('link').first()).toBeVisible({ timeout: 20_000 });
    await expect(rooms.getByText('Bookings are still being read').first()).toBeVisible();
    const progress = page.getByRole('progressbar', { name: 'Reading reservations' });
    await expect(progress).toBeVisible();
    // No honest estimate of a never-loaded system's total: the bar is indeterminate.
    expect(await progress.getAttribute('aria-valuenow')).toBeNull();
    expect(await progress.getAttribute('aria-valuemax')).toBeNull();
    await expect(page.getByText(/^Reservations: [\d,]+ read$/)).toBeVisible();

    // A room's week: its slots at once, each being checked unless a booking of it was read; none free.
    const room = rooms.getByRole('link').first();
    const roomName = (await room.innerText()).trim();
    await room.click();
    await expect(page.getByRole('heading', { level: 1, name: roomName })).toBeVisible();
    const grid = page.getByRole('region', { name: new RegExp(`^${roomName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, Week \\d+`) });
    const checking = grid.getByRole('button', { name: /, being checked(, now|, past)?$/ });
    await expect(checking.first()).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('progressbar', { name: 'Reading reservations' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Slot states' })).toContainText('Checking…');
    await expect(grid.getByRole('button', { name: /, free(, now)?$/ })).toHaveCount(0);
    // Nothing to book on a slot being checked: it says it is unavailable, and a click opens no dialog
    // (forced: Playwright itself waits for an aria-disabled button to become enabled).
    const first = checking.first();
    await expect(first).toHaveAttribute('aria-disabled', 'true');
    const slotName = (await first.getAttribute('aria-label')) ?? '';
    await first.click({ force: true });
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(slotName).toMatch(/, being checked/);
    await expectNoSeriousA11yViolations(page, 'the week grid of a system still loading its reservations');

    // The rest of the pages at full speed: the grid turns into the full grid by itself.
    expect((await sandboxControl('DELETE', '/sandbox/_sandbox/faults')).status).toBe(204);
    await expect(page.getByRole('progressbar', { name: 'Reading reservations' })).toHaveCount(0, { timeout: 90_000 });
    await expect(checking).toHaveCount(0);
    await expect(page.getByRole('list', { name: 'Slot states' })).not.toContainText('Checking…');
    await expect(grid.getByRole('button').first()).toBeVisible();
    await expect(page.getByText(/^Updated /)).toBeVisible();
  } finally {
    await sandboxControl('DELETE', '/sandbox/_sandbox/faults');
    await disconnect(page, deviceId, name);
  }
});
