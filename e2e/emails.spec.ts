import { randomUUID } from 'node:crypto';
import { expectNoSeriousA11yViolations } from './a11y';
import { BASE_URL, expect, sandboxFixtures, test } from './utils';

interface WeekSlot { startTime: string; endTime: string; bookable: boolean; isPast: boolean; state: string; ownerLabel: { apartment?: string } | null }
interface Week { freshness: { status: string }; nav: { next: string }; slots: WeekSlot[] }

/** Wall-clock time in the system's zone, as the e-mail says it. */
const clockIn = (timeZone: string) => (iso: string) => new Intl.DateTimeFormat('sv-SE', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));

test('a booking for a resident is kept as an e-mail (no SMTP_URL) and shown with its room and time', async ({ page, signedInAs }) => {
  test.setTimeout(300_000);
  await signedInAs('admin');
  const request = page.request;
  const fixtures = await sandboxFixtures();
  const mine = fixtures.approvals[0]?.deviceIds ?? [];
  // From the middle of the list: the booking and requests specs take residents from the ends.
  const residents = fixtures.residents.filter((r) => mine.includes(r.deviceId) && r.email && /^[A-Za-z0-9]+$/.test(r.apartmentId));
  const candidates = residents.slice(Math.floor(residents.length / 3));
  let booked: { email: string; slot: WeekSlot; resourceId: string; deviceId: string } | null = null;
  for (const resident of candidates) {
    for (const resourceId of resident.resourceIds) {
      let view: Week | null = null;
      for (let i = 0; i < 60; i += 1) {
        const response = await request.get(`/api/systems/${resident.deviceId}/resources/${resourceId}/week`);
        if (response.status() === 200) {
          view = (await response.json()) as Week;
          if (view?.freshness.status === 'ready') break;
        }
        await page.waitForTimeout(1_000);
      }
      const next = (await (await request.get(`/api/systems/${resident.deviceId}/resources/${resourceId}/week?week=${view?.nav.next ?? ''}`)).json()) as { slots: WeekSlot[] };
      const slots = [...(view?.slots ?? []), ...next.slots];
      if (slots.some((s) => !s.isPast && s.state !== 'free' && s.ownerLabel?.apartment === resident.apartmentId)) continue;
      const slot = next.slots.find((s) => s.bookable);
      if (!slot) continue;
      const answer = await request.post('/api/reservations', {
        headers: { 'Idempotency-Key': randomUUID(), origin: BASE_URL },
        data: { deviceId: resident.deviceId, resourceId, residentUserId: resident.userId, startTime: slot.startTime, endTime: slot.endTime },
      });
      // Bookings beyond the two weeks looked at count towards the quota too (the demo data is laid
      // out from today, so which resident that is depends on the date): then the next room or resident.
      if (answer.status() === 422 && ((await answer.json()) as { error?: { reason?: string } }).error?.reason === 'quotaExceeded') continue;
      expect(answer.status(), await answer.text()).toBe(202);
      booked = { email: resident.email, slot, resourceId, deviceId: resident.deviceId };
      break;
    }
    if (booked) break;
  }
  if (!booked) throw new Error('no resident without bookings in the demo data');

  // The system's zone (the demo's is Stockholm): the e-mail's times are in it.
  const { system } = (await (await request.get(`/api/systems/${booked.deviceId}`)).json()) as { system: { timeZone: string } };
  const clock = clockIn(system.timeZone);
  // After the outcome the worker composes the message and keeps it: "Kept (not sent)". The resident
  // may have older messages: this one is the booking of this slot.
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: booked.email, exact: true }) })
    .filter({ hasText: 'Booked' })
    .filter({ hasText: `from ${clock(booked.slot.startTime)} to ${clock(booked.slot.endTime)}` });
  const link = row.getByRole('link', { name: booked.email, exact: true });
  await expect(async () => {
    await page.goto('/emails?status=captured');
    await expect(link.first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByText('E-mails are kept here, not sent: SMTP_URL is not set.')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the E-mails page');

  await link.first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'E-mail' })).toBeVisible();
  // A kept message was never sent: its time is labelled "Kept", never "Sent" (issue 30 item 8).
  await expect(page.getByRole('term').filter({ hasText: /^Kept$/ })).toBeVisible();
  await expect(page.getByRole('term').filter({ hasText: /^Sent$/ })).toHaveCount(0);
  const times = `${clock(booked.slot.startTime)}–${clock(booked.slot.endTime)}`;
  await expect(page.getByRole('definition').filter({ hasText: 'Tvättbokning:' }).first()).toContainText(times);
  await expect(page.getByTestId('mail-text')).toContainText(`När: `);
  await expect(page.getByTestId('mail-text')).toContainText(times);
  const html = await request.get(`${await page.getByRole('link', { name: 'Open the HTML version' }).getAttribute('href')}`);
  expect(html.headers()['content-security-policy']).toContain('sandbox');
  expect(await html.text()).toContain(times);
  await expect(page.getByRole('link', { name: 'Download calendar file (.ics)' })).toBeVisible();
  const ics = await request.get(await page.getByRole('link', { name: 'Download calendar file (.ics)' }).getAttribute('href') ?? '');
  expect(await ics.text()).toContain('METHOD:REQUEST');
  await expectNoSeriousA11yViolations(page, 'an e-mail');
});
