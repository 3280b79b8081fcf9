import type { APIRequestContext, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { BASE_URL, chooseResident, DEMO, expect, sandboxControl, sandboxFixtures, signInWithApi, test, weekView } from './utils';

interface Resident {
  deviceId: string;
  userId: string;
  name: string;
  email: string;
  apartmentId: string;
  resourceIds: string[];
}
/**
 * A resident of the manager's first system with a resource on which their apartment has no future
 * booking yet (the sandbox's quota is 2 per apartment and resource), and the week to book in.
 */
async function pickScenario(request: APIRequestContext) {
  const fixtures = await sandboxFixtures();
  const deviceIds = fixtures.approvals[0]?.deviceIds ?? [];
  for (const resident of fixtures.residents.filter((r) => deviceIds.includes(r.deviceId) && /^[A-Za-z0-9]+$/.test(r.apartmentId))) {
    // Each of the resident's rooms: their future bookings in it, whether it has a free slot, and a
    // week from the next one on with at least four free slots.
    const rooms: { resourceId: string; held: number; anyFree: boolean; target: { key: string; free: number } | null }[] = [];
    for (const resourceId of resident.resourceIds) {
      let week: string | undefined;
      let held = 0;
      let anyFree = false;
      let target: { key: string; free: number } | null = null;
      for (let i = 0; i < 5; i += 1) {
        const view = await weekView(request, resident.deviceId, resourceId, week);
        held += view.slots.filter((s) => !s.isPast && s.state !== 'free' && s.ownerLabel?.apartment === resident.apartmentId).length;
        const free = view.slots.filter((s) => s.bookable).length;
        anyFree ||= free > 0;
        if (i >= 1 && !target && free >= 4) target = { key: view.week.key, free };
        week = view.nav.next;
      }
      rooms.push({ resourceId, held, anyFree, target });
    }
    // The room booked in holds none of theirs; another room, under the quota of two with a free
    // slot, is where the dialog offers "elsewhere" once the first is at its quota. (The demo's
    // bookings are generated relative to today: on some days a resident holds two in every other room.)
    for (const room of rooms) {
      const elsewhere = rooms.some((o) => o.resourceId !== room.resourceId && o.held < 2 && o.anyFree);
      if (room.held === 0 && room.target && elsewhere) return { resident, resourceId: room.resourceId, week: room.target.key };
    }
  }
  throw new Error('no resident without bookings in a room, and under the quota in another, in the demo data');
}

const freeSlots = (page: Page) => page.getByRole('region').getByRole('button', { name: /, free$/ });
const slotAt = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, `) });

async function slotTime(page: Page, index: number): Promise<string> {
  const name = (await freeSlots(page).nth(index).getAttribute('aria-label')) ?? (await freeSlots(page).nth(index).innerText());
  // "Monday 30 November, 07:00–10:00, free" → "Monday 30 November, 07:00–10:00"
  return name.replace(/, free$/, '');
}

async function book(page: Page, slotName: string, resident: Resident, search: boolean) {
  await slotAt(page, slotName).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  if (search) {
    await chooseResident(dialog, 'Resident', resident);
  }
  await expect(dialog).toContainText(`For ${resident.name}, apartment ${resident.apartmentId}`);
  // A double click books once: one key per dialog opening, and the button is disabled while sending.
  await dialog.getByRole('button', { name: 'Book', exact: true }).dblclick();
  await expect(dialog).toBeHidden();
}

test('a manager books for a resident, sees pending then booked live in two browsers, hits the quota, and cancels', async ({ page, browser, signedInAs }) => {
  test.setTimeout(180_000);
  await signedInAs('manager');
  const { resident, resourceId, week } = await pickScenario(page.request);
  const url = `/systems/${resident.deviceId}/resources/${resourceId}?week=${week}`;

  // Outcomes arrive a little later than usual, so that "pending" can be seen.
  expect((await sandboxControl('PUT', '/sandbox/_sandbox/faults', { webhook: { delayMs: 1500 } })).status).toBe(200);
  try {
    await page.goto(url);
    const other = await browser.newContext({ baseURL: BASE_URL });
    expect(await signInWithApi(other.request, DEMO.manager.email, DEMO.manager.password)).toBeNull();
    const otherPage = await other.newPage();
    await otherPage.goto(url);

    const first = await slotTime(page, 0);
    await book(page, first, resident, true);
    // Pending at once, then booked without a reload, here and in the other browser.
    await expect(slotAt(page, first)).toHaveAccessibleName(`${first}, booking pending for apartment ${resident.apartmentId}`);
    await expect(slotAt(page, first)).toHaveAccessibleName(`${first}, booked by apartment ${resident.apartmentId}`);
    await expect(slotAt(otherPage, first)).toHaveAccessibleName(`${first}, booked by apartment ${resident.apartmentId}`);
    await expect(page.getByRole('list', { name: 'Booking outcomes' })).toContainText('booked.');

    // The second booking is still within the quota; for the third, the dialog shows the
    // apartment at its quota as soon as the resident is chosen and does not offer Book; the
    // handler refuses it too (422 with the reason), before anything is sent.
    const second = await slotTime(page, 0);
    await book(page, second, resident, true);
    await expect(slotAt(page, second)).toHaveAccessibleName(`${second}, booked by apartment ${resident.apartmentId}`);
    const third = await slotTime(page, 0);
    await slotAt(page, third).click();
    const thirdDialog = page.getByRole('dialog');
    await chooseResident(thirdDialog, 'Resident', resident);
    await expect(thirdDialog.getByRole('alert')).toContainText(`Apartment ${resident.apartmentId}: 2 of 2 future bookings in`);
    await expect(thirdDialog.getByRole('alert')).toContainText('would be refused');
    await expect(thirdDialog.getByRole('button', { name: 'Book', exact: true })).toBeDisabled();
    // Instead, the apartment's next free slots in the rooms where it is under its quota, one click each.
    const roomName = (await weekView(page.request, resident.deviceId, resourceId, week)).resource?.name ?? '';
    await expect(thirdDialog.getByText(`Left out, at the quota: `)).toContainText(roomName);
    const elsewhere = thirdDialog.getByRole('list', { name: 'Free slots' }).getByRole('button', { name: /^Book / });
    await expect(elsewhere.first()).toBeVisible();
    for (const name of await elsewhere.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? ''))) expect(name.endsWith(` in ${roomName}`)).toBe(false);
    const thirdSlot = (await weekView(page.request, resident.deviceId, resourceId, week)).slots.find((s) => s.bookable);
    const refused = await page.request.post('/api/reservations', {
      headers: { 'idempotency-key': `e2e-quota-${Date.now()}`, origin: BASE_URL },
      data: { deviceId: resident.deviceId, resourceId, residentUserId: resident.userId, startTime: thirdSlot?.startTime, endTime: thirdSlot?.endTime },
    });
    expect(refused.status()).toBe(422);
    const refusal = ((await refused.json()) as { error: { message: string } }).error.message;
    expect(refusal).toContain(`Apartment ${resident.apartmentId} already holds 2 of 2 future bookings in`);
    expect(refusal).toContain('the service would refuse another.');
    await thirdDialog.getByRole('button', { name: 'Close' }).last().click();
    await expect(thirdDialog).toBeHidden();
    await expect(slotAt(page, third)).toHaveAccessibleName(`${third}, free`);

    // The Requests page lists them with status, who asked and for whom.
    const requestsPage = await other.newPage();
    await requestsPage.goto('/requests');
    const rows = requestsPage.getByRole('table', { name: 'Recent requests' }).getByRole('row');
    await expect(rows.filter({ hasText: 'Booked' }).first()).toContainText('Demo Manager');

    // Cancelling frees the slot, after a confirmation; the requests page follows live.
    await slotAt(page, first).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Cancel booking' }).click();
    await dialog.getByRole('button', { name: 'Yes, cancel the booking' }).click();
    await expect(dialog).toBeHidden();
    await expect(slotAt(page, first)).toHaveAccessibleName(`${first}, free`);
    await expect(slotAt(otherPage, first)).toHaveAccessibleName(`${first}, free`);
    await expect(rows.filter({ hasText: 'Cancellation in' }).first()).toContainText('Cancelled');
    await other.close();

    // Each double-clicked Book made one request, the one over the quota none: two bookings, one cancellation.
    const listed = (await (await page.request.get(`/api/requests?deviceId=${resident.deviceId}`)).json()) as { requests: { kind: string; residentUserId: string }[] };
    const mine = listed.requests.filter((r) => r.residentUserId === resident.userId);
    expect(mine.filter((r) => r.kind === 'create')).toHaveLength(2);
    expect(mine.filter((r) => r.kind === 'cancel')).toHaveLength(1);
  } finally {
    await sandboxControl('DELETE', '/sandbox/_sandbox/faults');
  }
});

test('on a 375 px phone a week shows one day at a time; a booking there carries a note into the slot dialog and the request JSON', async ({ page, signedInAs }) => {
  test.setTimeout(180_000);
  await signedInAs('manager');
  const { resident, resourceId, week } = await pickScenario(page.request);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`/systems/${resident.deviceId}/resources/${resourceId}?week=${week}`);
  const days = page.getByRole('group', { name: 'Day shown' });
  await expect(days.getByRole('button')).toHaveCount(7);
  // A whole week was ~2,700 px of scrolling; one day at a time is far less, and nothing scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(1400);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoSeriousA11yViolations(page, 'the resource page at 375 px');

  // The keyboard still crosses days: the arrow brings the next day into view and focus follows.
  const shown = async () => (await days.locator('[aria-pressed="true"]').innerText()).trim();
  const firstDay = await shown();
  const stop = page.getByRole('region').locator('button[tabindex="0"]');
  await stop.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(shown).not.toBe(firstDay);
  const focusedName = (await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))) ?? '';
  expect(focusedName).toMatch(/^\w+day \d{1,2} \w+, \d\d:\d\d–/);
  await expect(page.getByRole('region').getByRole('button', { name: focusedName, exact: true })).toBeVisible();

  // Find a day with a free slot through the switcher (only the chosen day's slots are shown).
  for (let i = 0; i < 7 && (await freeSlots(page).count()) === 0; i += 1) {
    await days.getByRole('button').nth(i).click();
    await expect(days.getByRole('button').nth(i)).toHaveAttribute('aria-pressed', 'true');
  }
  // The grid's one Tab stop follows the day shown.
  await expect(stop).toBeVisible();
  const slot = await slotTime(page, 0);
  await slotAt(page, slot).click();
  const dialog = page.getByRole('dialog');
  await chooseResident(dialog, 'Resident', resident);
  await dialog.getByLabel('Note (optional)').fill('  Asked at the door, has no app  ');
  await expectNoSeriousA11yViolations(page, 'the booking dialog at 375 px');
  await dialog.getByRole('button', { name: 'Book', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(slotAt(page, slot)).toHaveAccessibleName(`${slot}, booked by apartment ${resident.apartmentId}`);

  // The booked slot's dialog says for whom, who booked it through the portal and when, and the note.
  await slotAt(page, slot).click();
  await expect(dialog.getByRole('definition').filter({ hasText: `${resident.name}, apartment ${resident.apartmentId}` })).toBeVisible();
  await expect(dialog.getByRole('definition').filter({ hasText: /^Booked through the portal by Demo Manager on \d{1,2} \w+ \d{4}$/ })).toBeVisible();
  await expect(dialog.getByRole('definition').filter({ hasText: /^Asked at the door, has no app$/ })).toBeVisible();
  await page.keyboard.press('Escape');

  // The request JSON the Requests page reads carries the note, trimmed.
  const listed = (await (await page.request.get(`/api/requests?deviceId=${resident.deviceId}`)).json()) as { requests: { kind: string; residentUserId: string; note: string | null }[] };
  const mine = listed.requests.filter((r) => r.residentUserId === resident.userId && r.kind === 'create');
  expect(mine.map((r) => r.note)).toContain('Asked at the door, has no app');
});

test('the event stream is not cached or buffered, needs a session, and an unsigned webhook is refused', async ({ context, signedInAs, request }) => {
  const anonymous = await fetch(`${BASE_URL}/api/events`);
  expect(anonymous.status).toBe(401);
  await signedInAs('manager');
  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const controller = new AbortController();
  const response = await fetch(`${BASE_URL}/api/events`, { headers: { cookie, 'last-event-id': '0' }, signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
  expect(response.headers.get('x-accel-buffering')).toBe('no');
  const reader = response.body?.getReader();
  const first = await reader?.read();
  expect(new TextDecoder().decode(first?.value)).toContain('retry:');
  controller.abort();

  const unsigned = await request.post('/api/webhooks', { data: { correlationId: crypto.randomUUID(), eventType: 'reservationResult', eventData: { succeded: true } } });
  expect(unsigned.status()).toBe(401);
  expect(((await unsigned.json()) as { error: { message: string } }).error.message).toMatch(/Missing header/);
});

test("a booking whose answer timed out shows \"waiting for the service's answer\", then booked — never failed", async ({ page, signedInAs }) => {
  test.setTimeout(120_000);
  await signedInAs('manager');
  const { resident, resourceId, week } = await pickScenario(page.request);
  await page.goto(`/systems/${resident.deviceId}/resources/${resourceId}?week=${week}`);
  // The service takes the booking, then answers after the portal's timeout (SERVICE_TIMEOUT_MS, 4 s here).
  const set = await sandboxControl('PUT', '/sandbox/_sandbox/faults', { afterAccept: { mode: 'delay', delayMs: 8_000, method: 'POST', times: 1 } });
  expect(set.status).toBe(200);
  try {
    const slot = await slotTime(page, 0);
    await book(page, slot, resident, true);
    const outcomes = page.getByRole('list', { name: 'Booking outcomes' });
    await expect(outcomes).toContainText("sent — waiting for the service's answer");
    await expect(slotAt(page, slot)).toHaveAccessibleName(`${slot}, booking pending for apartment ${resident.apartmentId}`);
    // The reconciler reads the service's truth: it was booked.
    await expect(outcomes.getByRole('listitem').first()).toContainText('booked.', { timeout: 45_000 });
    await expect(slotAt(page, slot)).toHaveAccessibleName(`${slot}, booked by apartment ${resident.apartmentId}`);
    await expect(outcomes).not.toContainText('not booked');
  } finally {
    await sandboxControl('DELETE', '/sandbox/_sandbox/faults');
  }
});
