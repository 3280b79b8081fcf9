import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { BASE_URL, expect, firstSystem, sandboxFixtures, test, weekView, type WeekSlot } from './utils';

type Slot = WeekSlot & { startMs: number; endMs: number; date: string };

test('a manager creates a display in two clicks; it shows the rooms without a session, a booking appears without touching it, it survives going offline, and switching it off blanks it', async ({ page, browser, signedInAs }) => {
  test.setTimeout(180_000);
  await signedInAs('manager');
  const { system, resources } = await firstSystem(page);

  // Two clicks: the link on the system's page, then "Create display" on the prefilled form.
  await page.goto(`/systems/${system.deviceId}`);
  await page.getByRole('link', { name: 'Laundry-room displays' }).click();
  await page.getByRole('checkbox', { name: 'Show apartment numbers on booked times' }).check();
  await page.getByRole('button', { name: 'Create display' }).click();
  const field = page.getByRole('textbox', { name: `Address of ${system.name}` });
  await expect(field).toHaveValue(/\/display\/[A-Za-z0-9_-]{43}$/);
  const url = await field.inputValue();
  await expect(page.getByRole('img', { name: `QR code of the address of ${system.name}` })).toBeVisible();
  const results = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);

  // The screen by the door: its own browser, no session, Swedish by default, at phone width.
  const screenContext = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'sv-SE' });
  const screen = await screenContext.newPage();
  await screen.clock.install();
  await screen.goto(url);
  await expect(screen.getByRole('heading', { level: 1, name: system.name })).toBeVisible();
  for (const room of resources) await expect(screen.getByRole('heading', { level: 2, name: room.name })).toBeVisible();
  await expect(screen.getByText(/Ledigt nu|Upptaget till|Service till|Stängt till/).first()).toBeVisible();
  await expect(screen.getByRole('heading', { name: /^I dag/ }).first()).toBeVisible();
  const screenAxe = await new AxeBuilder({ page: screen }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(screenAxe.violations.map((v) => v.id)).toEqual([]);

  // A booking made in the portal for today or tomorrow shows on the screen at its next update.
  const fixtures = await sandboxFixtures(page.request);
  const residents = fixtures.residents.filter((r) => r.deviceId === system.deviceId);
  let booked: { slot: Slot; apartment: string } | null = null;
  const soon = Date.now() + 36 * 3_600_000;
  for (const room of resources) {
    const current = await weekView(page.request, system.deviceId, room.id);
    const next = await weekView(page.request, system.deviceId, room.id, current.nav.next);
    const slot = ([...current.slots, ...next.slots] as Slot[]).find((s) => s.bookable && s.startMs < soon);
    if (!slot) continue;
    for (const resident of residents.filter((r) => r.resourceIds.includes(room.id))) {
      const response = await page.request.post('/api/reservations', {
        data: { deviceId: system.deviceId, resourceId: room.id, residentUserId: resident.userId, startTime: slot.startTime, endTime: slot.endTime },
        headers: { 'idempotency-key': `e2e-display-${randomUUID()}`, origin: BASE_URL },
      });
      if (response.status() === 202) {
        booked = { slot, apartment: resident.apartmentId };
        break;
      }
    }
    if (booked) break;
  }
  expect(booked, 'a bookable slot today or tomorrow with a resident who may book it').not.toBeNull();
  // The system's own zone: another spec may have changed it from the demo's Europe/Stockholm.
  const timeZone = (system as { timeZone?: string }).timeZone ?? 'Europe/Stockholm';
  const time = (ms: number) => new Intl.DateTimeFormat('sv-SE', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
  const label = `${time(booked!.slot.startMs)}–${time(booked!.slot.endMs)}`;
  const number = booked!.apartment.replace(/^\s*(lgh|apt|apartment|lägenhet)\.?\s*/i, '');
  await screen.clock.runFor(16_000);
  await expect(screen.getByRole('listitem').filter({ hasText: label }).filter({ hasText: `Bokad · lgh ${number}` }).first()).toBeVisible();

  // Cut off: the last times stay, with "offline since"; back: "updated … ago" again.
  await screen.route('**/screen', (route) => route.abort());
  // Its stream is open, so the rooms are asked for at changes and every 30 s (lib/displays/serve.ts: displaySafetyS).
  await screen.clock.runFor(31_000);
  await expect(screen.getByRole('status')).toContainText('Ingen kontakt sedan');
  await expect(screen.getByRole('heading', { level: 2, name: resources[0]!.name })).toBeVisible();
  await screen.unroute('**/screen');
  await screen.clock.runFor(61_000);
  await expect(screen.getByRole('status')).toContainText('Uppdaterad för');

  // Switched off: the screen says so at its next update.
  await page.getByRole('button', { name: `Switch off ${system.name}` }).first().click();
  await page.getByRole('dialog', { name: `Switch off ${system.name}?` }).getByRole('button', { name: 'Switch off' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${system.name} was switched off.` })).toBeVisible();
  await screen.clock.runFor(16_000);
  await expect(screen.getByText('Den här skärmen har stängts av.')).toBeVisible();
  await screenContext.close();
});
