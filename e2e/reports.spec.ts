import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, firstSystem, sandboxFixtures, test } from './utils';

interface ReportApi {
  period: { kind: string; from: string; to: string };
  report: { total: { counts: { bookings: number } }; rooms: { name: string }[] };
}

test('a system report: switch the period, read the charts’ summaries and a table', async ({ page, signedInAs }) => {
  test.setTimeout(120_000);
  await signedInAs('manager');
  const { system } = await firstSystem(page);

  // From the main navigation and the system page.
  await page.goto(`/systems/${system.deviceId}`);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' })).toBeVisible();
  await page.getByRole('link', { name: 'Reports for this system' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Report: ${system.name}` })).toBeVisible();
  // It opens on a period that has happened (issue 48): last month, or the month so far once half of it is over.
  const opened = (await (await page.request.get(`/api/systems/${system.deviceId}/reports`)).json()) as ReportApi;
  expect(['last-month', 'month-to-date']).toContain(opened.period.kind);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Stockholm' }).format(new Date());
  expect(opened.period.to <= today, `${opened.period.to} is not after ${today}`).toBe(true);
  const label = opened.period.kind === 'last-month' ? 'Last month' : 'Month to date';
  await expect(page.getByRole('navigation', { name: 'Period' }).getByRole('link', { name: label, exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('navigation', { name: 'Period' }).getByRole('link', { name: 'This month', exact: true })).not.toHaveAttribute('aria-current', 'page');

  // Last 12 months: the numbers the API gives, as charts with their summaries and as tables.
  await page.getByRole('navigation', { name: 'Period' }).getByRole('link', { name: 'Last 12 months' }).click();
  await expect(page).toHaveURL(/period=last-12-months/);
  await expect(page.getByRole('link', { name: 'Last 12 months' })).toHaveAttribute('aria-current', 'page');
  const api = (await (await page.request.get(`/api/systems/${system.deviceId}/reports?period=last-12-months`)).json()) as ReportApi;
  expect(api.period.kind).toBe('last-12-months');
  expect(api.report.total.counts.bookings).toBeGreaterThan(0);
  await expect(page.getByText(`Last 12 months:`, { exact: false }).first()).toBeVisible();

  const shares = page.getByRole('img', { name: /^Booked share of slot time, \d+ bars?: highest .+ \d+%, lowest .+ \d+%\.$/ });
  await expect(shares).toBeVisible();
  const hours = page.getByRole('img', { name: /^Most bookings: .+\.$/ });
  await expect(hours).toBeVisible();
  // The same summaries stand as visible text.
  await expect(page.getByText((await hours.getAttribute('aria-label')) ?? '-', { exact: true })).toBeVisible();

  const rooms = page.getByRole('table', { name: 'Rooms in figures' });
  await expect(rooms.getByRole('columnheader', { name: 'Booked share' })).toBeVisible();
  await expect(rooms.getByRole('rowheader', { name: api.report.rooms[0]!.name, exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'All bookings (CSV, semicolon-separated)' })).toHaveAttribute('href', new RegExp(`/api/systems/${system.deviceId}/exports/bookings\\.csv\\?from=${api.period.from}&to=${api.period.to}&delimiter=semicolon`));

  await expectNoSeriousA11yViolations(page, 'the report page');

  // Downloads: the period's bookings and the rooms table, as the browser saves them, parsed back.
  const bookingsDownload = page.waitForEvent('download');
  await page.getByRole('link', { name: 'All bookings (CSV, semicolon-separated)' }).click();
  const bookings = await bookingsDownload;
  expect(bookings.suggestedFilename()).toMatch(new RegExp(`^bookings-.+-${api.period.from}-${api.period.to}\\.csv$`));
  const bookingRows: string[][] = parse(await readFile(await bookings.path()), { delimiter: ';', bom: true });
  expect(bookingRows[0]).toEqual(['Date', 'Start', 'End', 'Room', 'Apartment', 'Resident', 'Status', 'Booked through the portal by']);
  expect(bookingRows.length).toBeGreaterThan(1);
  const roomsDownload = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Rooms (CSV)', exact: true }).click();
  const roomRows: string[][] = parse(await readFile(await (await roomsDownload).path()), { delimiter: ';', bom: true });
  expect(roomRows[0]?.[0]).toBe('Room');
  expect(roomRows).toHaveLength(api.report.rooms.length + 2);
  expect(Number(roomRows.at(-1)![roomRows[0]!.indexOf('Bookings')])).toBe(api.report.total.counts.bookings);

  // The custom period form works as a plain GET form; a reversed period is said in a sentence.
  await page.getByLabel('From', { exact: true }).fill('2026-03-31');
  await page.getByLabel('To', { exact: true }).fill('2026-01-01');
  await page.getByRole('button', { name: 'Show period' }).click();
  await expect(page).toHaveURL(/period=custom&from=2026-03-31&to=2026-01-01/);
  await expect(page.getByRole('alert').filter({ hasText: 'The period starts after it ends (2026-03-31 is after 2026-01-01).' })).toBeVisible();
});

test('the report API refuses a reversed period with 400 and another system with 403', async ({ page, signedInAs }) => {
  await signedInAs('manager');
  const { system } = await firstSystem(page);
  const reversed = await page.request.get(`/api/systems/${system.deviceId}/reports?from=2026-03-31&to=2026-01-01`);
  expect(reversed.status()).toBe(400);
  expect(((await reversed.json()) as { error: { message: string } }).error.message).toContain('starts after it ends');

  const fixtures = await sandboxFixtures();
  const mine = fixtures.approvals[0]?.deviceIds ?? [];
  const other = fixtures.systems.find((s) => !mine.includes(s.deviceId));
  if (!other) throw new Error('the demo fixtures have no system outside the manager’s');
  expect((await page.request.get(`/api/systems/${other.deviceId}/reports?period=last-month`)).status()).toBe(403);

  const all = await page.request.get('/api/reports?period=last-3-months');
  expect(all.status()).toBe(200);
  const overview = (await all.json()) as { systems: { system: { deviceId: string } }[] };
  expect(overview.systems.length).toBeGreaterThan(0);
  for (const s of overview.systems) expect(mine).toContain(s.system.deviceId);
  expect(overview.systems.map((s) => s.system.deviceId)).not.toContain(other.deviceId);
});
