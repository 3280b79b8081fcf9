import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { BASE_URL, expect, sandboxControl, sandboxFixtures, test } from './utils';
import { apartmentNumber } from '@/lib/i18n/format';

interface Listed {
  id: string;
  kind: 'create' | 'cancel';
  status: string;
  reservationId: string | null;
  residentName: string | null;
  resourceName: string | null;
}
interface ListPage {
  requests: Listed[];
  older: string | null;
  newer: string | null;
}
interface Scenario {
  deviceId: string;
  otherDeviceId: string;
  resident: { userId: string; name: string; apartmentId: string };
}

async function readyWeek(request: APIRequestContext, deviceId: string, resourceId: string, week?: string) {
  for (let i = 0; i < 60; i += 1) {
    const response = await request.get(`/api/systems/${deviceId}/resources/${resourceId}/week${week ? `?week=${week}` : ''}`);
    if (response.status() === 200) {
      const view = (await response.json()) as { freshness: { status: string }; nav: { next: string }; slots: { startTime: string; endTime: string; bookable: boolean; isPast: boolean; state: string; ownerLabel: { kind: string; apartment?: string } | null }[] };
      if (view.freshness.status === 'ready') return view;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('the week view never became ready');
}

async function readyApartment(request: APIRequestContext, deviceId: string, groupId: string) {
  for (let i = 0; i < 60; i += 1) {
    const response = await request.get(`/api/systems/${deviceId}/apartments/${groupId}`);
    if (response.status() === 200) {
      const view = (await response.json()) as { freshness: { status: string }; rooms: { resourceId: string; held: number; quota: number; groupRooms?: string[] }[] };
      if (view.freshness.status === 'ready') return view;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('the apartment view never became ready');
}

async function settled(request: APIRequestContext, residentUserId: string, count: number): Promise<Listed[]> {
  for (let i = 0; i < 60; i += 1) {
    const page = (await (await request.get(`/api/requests?resident=${residentUserId}`)).json()) as ListPage;
    if (page.requests.length >= count && page.requests.every((r) => r.status === 'succeeded' || r.status === 'failed')) return page.requests;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the requests were not settled in time');
}

const mutation = (key: string) => ({ 'Idempotency-Key': key, origin: BASE_URL });

/**
 * Four requests of one resident of the manager's first system, made through the API: two
 * bookings (booked), a third over the quota of 2 (refused by the portal before sending, so not
 * recorded), the cancellation of the first (cancelled), and a booking the service refuses (a
 * fault injected: failed, with its reason). The spec has a portal of its own (e2e/utils.ts), so the
 * resident's requests are only these.
 */
let scenario: Scenario | undefined;
async function seedRequests(request: APIRequestContext): Promise<Scenario> {
  if (scenario) return scenario;
  const fixtures = await sandboxFixtures();
  const mine = fixtures.approvals[0]?.deviceIds ?? [];
  const otherDeviceId = fixtures.approvals[1]?.deviceIds[0];
  if (!otherDeviceId) throw new Error('the demo fixtures have a second approval');
  // Apartments written "1203" or "LGH 1203" alike (the number is what the page shows and is searched by).
  const candidates = fixtures.residents.filter((r) => mine.includes(r.deviceId) && /^[A-Za-z0-9]+$/.test(apartmentNumber(r.apartmentId))).reverse();
  for (const resident of candidates) {
    // The demo data's own history holds no portal requests; a retry on a fresh portal starts again.
    const earlier = (await (await request.get(`/api/requests?resident=${resident.userId}`)).json()) as ListPage;
    if (earlier.requests.length > 0) continue;
    // The apartment's own quota as the booking handler counts it (every future booking, however far
    // ahead, and rooms that share a quota): the demo's history differs by date.
    const apartment = await readyApartment(request, resident.deviceId, resident.userGroupId);
    for (const resourceId of resident.resourceIds) {
      const room = apartment.rooms.find((r) => r.resourceId === resourceId);
      if (!room || room.held > 0 || room.quota !== 2 || room.groupRooms) continue;
      let week: string | undefined;
      let free: { startTime: string; endTime: string }[] = [];
      for (let i = 0; i < 4; i += 1) {
        const view = await readyWeek(request, resident.deviceId, resourceId, week);
        if (i >= 1 && free.length < 3) free = view.slots.filter((s) => s.bookable);
        week = view.nav.next;
      }
      if (free.length < 3) continue;
      const bookSlot = (slot: { startTime: string; endTime: string }) =>
        request.post('/api/reservations', {
          headers: mutation(randomUUID()),
          data: { deviceId: resident.deviceId, resourceId, residentUserId: resident.userId, startTime: slot.startTime, endTime: slot.endTime },
        });
      for (const slot of free.slice(0, 2)) {
        const answer = await bookSlot(slot);
        expect(answer.status(), await answer.text()).toBe(202);
        // One after the other: the quota applies in order.
        await settled(request, resident.userId, 1);
      }
      const made = await settled(request, resident.userId, 2);
      // A third is over the quota: refused before anything is sent, and not recorded.
      const over = await bookSlot(free[2]!);
      expect(over.status()).toBe(422);
      expect(((await over.json()) as { error: { message: string } }).error.message).toBe(
        `Apartment ${apartmentNumber(resident.apartmentId)} already holds 2 of 2 future bookings in ${made[0]?.resourceName ?? ''}; the service would refuse another.`,
      );
      const booked = made.find((r) => r.kind === 'create' && r.status === 'succeeded');
      if (!booked?.reservationId) throw new Error('no booking succeeded');
      const cancel = await request.delete(`/api/reservations/${booked.reservationId}?deviceId=${resident.deviceId}`, { headers: mutation(randomUUID()) });
      expect(cancel.status(), await cancel.text()).toBe(202);
      await settled(request, resident.userId, 3);
      // Back under the quota; the service refuses this one (a 400 injected): failed, with its reason.
      expect((await sandboxControl('PUT', '/sandbox/_sandbox/faults', { failures: [{ status: 400, times: 1, method: 'POST', pathPrefix: '/v1/reservations' }] })).status).toBe(200);
      try {
        expect((await bookSlot(free[2]!)).status()).toBeGreaterThanOrEqual(400);
      } finally {
        await sandboxControl('DELETE', '/sandbox/_sandbox/faults');
      }
      await settled(request, resident.userId, 4);
      scenario = { deviceId: resident.deviceId, otherDeviceId, resident };
      return scenario;
    }
  }
  throw new Error('no resident without bookings in the demo data');
}

const table = (page: Page) => page.getByRole('table', { name: 'Recent requests' });
const bodyRows = (page: Page) => table(page).getByRole('row').filter({ hasNot: page.getByRole('columnheader') });

test.describe.configure({ mode: 'serial' });

test.beforeEach(async ({ signedInAs }) => {
  await signedInAs('manager');
});

test('says Booked, Cancelled and Failed with its reason, never "Done"', async ({ page }) => {
  test.setTimeout(180_000);
  const { resident } = await seedRequests(page.request);
  await page.goto(`/requests?resident=${resident.userId}`);
  await expect(bodyRows(page)).toHaveCount(4);
  await expect(bodyRows(page).filter({ hasText: 'Cancellation in' })).toContainText('Cancelled');
  await expect(bodyRows(page).filter({ hasText: 'Booked' })).toHaveCount(2);
  await expect(bodyRows(page).filter({ hasText: 'Failed' })).toHaveCount(1);
  await expect(table(page)).not.toContainText('Done');
  await expect(page.getByText(`Only requests for ${resident.name}`)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the requests page');
});

test('filters and search live in the URL; the back button goes back to the previous filters', async ({ page }) => {
  const { resident } = await seedRequests(page.request);
  await page.goto(`/requests?resident=${resident.userId}`);
  await expect(bodyRows(page)).toHaveCount(4);

  await page.getByLabel('Status').selectOption({ label: 'Failed' });
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(`/requests?status=failed&resident=${resident.userId}`);
  await expect(bodyRows(page)).toHaveCount(1);
  await expect(bodyRows(page)).toContainText('Failed');

  await page.getByLabel('Status').selectOption({ label: 'Cancelled' });
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(`/requests?status=cancelled&resident=${resident.userId}`);
  await expect(bodyRows(page)).toHaveCount(1);
  await expect(bodyRows(page)).toContainText('Cancelled');

  await page.goBack();
  await expect(page).toHaveURL(`/requests?status=failed&resident=${resident.userId}`);
  await expect(bodyRows(page)).toContainText('Failed');
  await expect(page.getByLabel('Status')).toHaveValue('failed');
  await page.goBack();
  await expect(bodyRows(page)).toHaveCount(4);

  // Free text: the resident's name and apartment; something nobody has finds nothing.
  await page.getByRole('searchbox', { name: 'Search' }).fill(apartmentNumber(resident.apartmentId));
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(`/requests?resident=${resident.userId}&q=${apartmentNumber(resident.apartmentId)}`);
  await expect(bodyRows(page)).toHaveCount(4);
  await page.goto(`/requests?q=${encodeURIComponent(resident.name.toUpperCase())}`);
  await expect(bodyRows(page).first()).toContainText(resident.name);
  await page.goto('/requests?q=no-such-resident-anywhere');
  // In the main part: the header's language switcher has a status line of its own.
  await expect(page.getByRole('main').getByRole('status')).toHaveText('No requests match these filters.');

  // A shared link opens the same filtered list; "Show all residents" drops that filter only.
  await page.goto(`/requests?status=booked&resident=${resident.userId}`);
  await expect(bodyRows(page)).toHaveCount(2);
  await page.getByRole('link', { name: 'Show all residents' }).click();
  await expect(page).toHaveURL('/requests?status=booked');
});

test('pages through with Older / Newer / Newest, keeping the filters', async ({ page }) => {
  const { resident } = await seedRequests(page.request);
  const all = (await (await page.request.get(`/api/requests?resident=${resident.userId}`)).json()) as ListPage;
  expect(all.requests).toHaveLength(4);
  // A bad page marker is said, not ignored (API calls first, back to back: a connection kept
  // alive but idle through the page steps may be closed by the server just as it is reused).
  const bad = await page.request.get('/api/requests?before=yesterday');
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/^The before page marker is not one the portal made/);
  await page.goto(`/requests?resident=${resident.userId}&limit=3`);
  const pager = page.getByRole('navigation', { name: 'Pages of requests' });
  await expect(bodyRows(page)).toHaveCount(3);
  await expect(pager.getByRole('link', { name: 'Newer requests' })).toHaveCount(0);
  const firstPage = await bodyRows(page).allInnerTexts();

  await pager.getByRole('link', { name: 'Older requests' }).click();
  await expect(page).toHaveURL(new RegExp(`resident=${resident.userId}&before=[^&]+&limit=3$`));
  await expect(bodyRows(page)).toHaveCount(1);
  await expect(pager.getByRole('link', { name: 'Older requests' })).toHaveCount(0);
  expect(firstPage).not.toContain((await bodyRows(page).allInnerTexts())[0]);

  await pager.getByRole('link', { name: 'Newer requests' }).click();
  await expect(page).toHaveURL(/after=/);
  await expect(bodyRows(page)).toHaveCount(3);
  expect(await bodyRows(page).allInnerTexts()).toEqual(firstPage);
  await page.goBack();
  await expect(bodyRows(page)).toHaveCount(1);
  await pager.getByRole('link', { name: 'Newest requests' }).click();
  await expect(page).toHaveURL(`/requests?resident=${resident.userId}&limit=3`);

});

test("another system's requests are refused with a sentence and a way back, never widened; bad filters are said", async ({ page }) => {
  const { otherDeviceId } = await seedRequests(page.request);
  const refused = await page.request.get(`/api/requests?deviceId=${otherDeviceId}`);
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toBe('You do not have access to this system.');
  // (API calls first, back to back: see the paging test.)
  const badStatus = await page.request.get('/api/requests?status=done');
  expect(badStatus.status()).toBe(400);
  const sentence = 'The status "done" is not one of pending, unknown, booked, cancelled, failed.';
  expect(((await badStatus.json()) as { error: { message: string } }).error.message).toBe(sentence);

  await page.goto(`/requests?deviceId=${otherDeviceId}`);
  await expect(page.getByRole('heading', { name: "You don't have access to that system" })).toBeVisible();
  await expect(table(page)).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'the requests page refusing a system');
  await page.getByRole('link', { name: 'Show the requests of your systems' }).click();
  await expect(page).toHaveURL('/requests');
  await expect(table(page)).toBeVisible();

  await page.goto('/requests?status=done&from=2026-11-31');
  await expect(page.getByRole('alert').filter({ hasText: 'These filters cannot be used' })).toContainText('The status "done" is not one of');
  await expect(table(page)).toHaveCount(0);
  await page.goto('/requests?from=2026-11-30&to=2026-11-01');
  await expect(page.getByRole('alert').filter({ hasText: 'These filters cannot be used' })).toContainText('The "from" date must not be after the "to" date.');
  await page.getByRole('link', { name: 'Clear the filters' }).click();
  await expect(page).toHaveURL('/requests');
});

test('on a 375 px phone every request is a card with all its fields on screen, nothing scrolls sideways', async ({ page }) => {
  const { resident } = await seedRequests(page.request);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`/requests?resident=${resident.userId}`);
  const cards = page.getByRole('list', { name: 'Requests' }).getByRole('listitem');
  await expect(cards).toHaveCount(4);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  for (const card of await cards.all()) {
    for (const term of ['System', 'For', 'Slot', 'Asked by', 'When']) {
      const field = card.getByRole('term').filter({ hasText: new RegExp(`^${term}$`) });
      await expect(field).toBeVisible();
      const definition = field.locator('xpath=following-sibling::dd[1]');
      await expect(definition).not.toBeEmpty();
      const box = await definition.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 375, `${term} is within the screen`).toBe(true);
    }
  }
  // The failed one (the service refused it) shows its reason in words.
  await expect(cards.filter({ hasText: 'Failed' }).getByRole('definition').first()).not.toBeEmpty();
  await expectNoSeriousA11yViolations(page, 'the requests page at 375 px');
});
