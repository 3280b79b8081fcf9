import { randomUUID } from 'node:crypto';
import { apartmentNumber } from '@/lib/i18n/format';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, firstSystem, sandboxFixtures, test } from './utils';

interface ApartmentApi {
  title: { kind: 'apartment' | 'name' | 'unnamed'; apartment: string; name: string };
  system: { timeZone: string };
  residents: { userId: string; name: string }[];
  rooms: { resourceId: string; name: string; held: number; quota: number; allowed: boolean | null }[];
}
interface NextFreeApi {
  slots: { resourceId: string; resourceName: string; startMs: number; startLabel: string; endLabel: string; startTime: string }[];
}

/** The day as the page words it for an English reader: "Monday 24 November" in the system's zone. */
const dayLabel = (ms: number, timeZone: string) => new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone }).format(ms);

test('the resident desk: an apartment, its next free slot booked and cancelled live', async ({ page, signedInAs }) => {
  test.setTimeout(180_000);
  await signedInAs('manager');
  const { system } = await firstSystem(page);
  const fixtures = await sandboxFixtures();
  const groups = [...new Set(fixtures.residents.filter((r) => r.deviceId === system.deviceId && r.resourceIds.length > 0).map((r) => r.userGroupId))];

  // An apartment with residents and a next free slot (in a room where it is under its quota).
  let chosen: { groupId: string; view: ApartmentApi; slot: NextFreeApi['slots'][number] } | undefined;
  for (const groupId of groups.slice(0, 20)) {
    const view = (await (await page.request.get(`/api/systems/${system.deviceId}/apartments/${groupId}`)).json()) as ApartmentApi;
    const next = (await (await page.request.get(`/api/systems/${system.deviceId}/apartments/${groupId}/next-free`)).json()) as NextFreeApi;
    const slot = next.slots[0];
    if (view.residents.length > 0 && slot && view.title.kind === 'apartment') {
      chosen = { groupId, view, slot };
      break;
    }
  }
  if (!chosen) throw new Error('no apartment with a next free slot in the demo data');
  const { groupId, view, slot } = chosen;

  await page.goto(`/systems/${system.deviceId}/apartments/${groupId}`);
  await expect(page.getByRole('heading', { level: 1, name: `Apartment ${apartmentNumber(view.title.apartment)}` })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: system.name })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Residents' })).toBeVisible();
  if (view.residents[0]?.name) await expect(page.getByText(view.residents[0].name, { exact: true }).first()).toBeVisible();
  const quota = page.getByRole('list', { name: 'Quota per room' });
  await expect(quota.getByText(/\d+ of \d+ future bookings/).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the apartment page');

  // Book the first next free slot: pending at once, then booked live.
  const day = dayLabel(slot.startMs, view.system.timeZone);
  const when = `${day} ${slot.startLabel}–${slot.endLabel}`;
  await page.getByRole('list', { name: 'Free slots' }).getByRole('button', { name: `Book ${when} in ${slot.resourceName}` }).click();
  const outcomes = page.getByRole('list', { name: 'Booking outcomes' });
  await expect(outcomes.getByText(/^Booking .*: (sending…|sent — waiting|booked\.)/).first()).toBeVisible();
  await expect(outcomes.getByText(/^Booking .*: booked\.$/).first()).toBeVisible({ timeout: 30_000 });

  // It is in the upcoming list, booked by the demo manager; cancel it, confirmed, and see it cancelled live.
  const label = `${day}, ${slot.startLabel}–${slot.endLabel} in ${slot.resourceName}`;
  const cancel = page.getByRole('button', { name: `Cancel ${label}` });
  await expect(cancel).toBeVisible({ timeout: 15_000 });
  await cancel.click();
  await page.getByRole('group', { name: `Confirm cancelling ${label}` }).getByRole('button', { name: 'Yes, cancel it' }).click();
  await expect(outcomes.getByText(/^Cancelling .*: cancelled\.$/).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: `Cancel ${label}` })).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByRole('heading', { name: 'Requests from the portal' })).toBeVisible();
});

test('apartments of systems the manager may not see are 403, unknown ones 404 (the page: not found), malformed filters 400', async ({ page, signedInAs }) => {
  await signedInAs('manager');
  const { system } = await firstSystem(page);
  const fixtures = await sandboxFixtures();
  const mine = fixtures.approvals[0]?.deviceIds ?? [];
  const foreign = fixtures.residents.find((r) => !mine.includes(r.deviceId));
  if (!foreign) throw new Error('the demo fixtures have no other system');

  expect((await page.request.get(`/api/systems/${foreign.deviceId}/apartments/${foreign.userGroupId}`)).status()).toBe(403);
  expect((await page.request.get(`/api/systems/${foreign.deviceId}/apartments/${foreign.userGroupId}/next-free`)).status()).toBe(403);
  expect((await page.goto(`/systems/${foreign.deviceId}/apartments/${foreign.userGroupId}`))?.status()).toBe(403);

  const unknown = randomUUID();
  expect((await page.request.get(`/api/systems/${system.deviceId}/apartments/${unknown}`)).status()).toBe(404);
  expect((await page.request.get(`/api/systems/${system.deviceId}/apartments/${unknown}/next-free`)).status()).toBe(404);
  // The page shows the portal's not-found page. Its status is 200: the system segment's loading.tsx
  // has started streaming before the page learns the group is unknown (as for an unknown resource).
  await page.goto(`/systems/${system.deviceId}/apartments/${unknown}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  // A foreign apartment id inside one's own system is unknown there, too.
  expect((await page.request.get(`/api/systems/${system.deviceId}/apartments/${foreign.userGroupId}`)).status()).toBe(404);

  const bad = await page.request.get(`/api/systems/${system.deviceId}/apartments/${unknown}/next-free?dayPart=night`);
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/dayPart must be one of morning, afternoon, evening/);
});
