import { expectNoSeriousA11yViolations } from './a11y';
import { expect, firstSystem, sandboxFixtures, test } from './utils';
import { apartmentNumber } from '@/lib/i18n/format';

interface WeekJson {
  week: { key: string };
  slots: { state: string; ownerLabel: { kind: string; apartment?: string } | null }[];
}

/** A4 landscape in CSS pixels (96 per inch) and its printable area inside the 10 mm margins. */
const MM = 96 / 25.4;
const A4 = { width: Math.round(297 * MM), height: Math.round(210 * MM) };
const PRINTABLE = { height: 190 * MM };

/** Pages of a PDF: its page objects (`/Type /Page`), not the page tree (`/Type /Pages`). */
const pdfPages = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;

/** A PNG's size from its IHDR chunk. */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

test('the week sheet: opened from the room, the same bookings as the grid, one A4 landscape page in print', async ({ page, signedInAs }) => {
  await signedInAs('manager');
  const overview = await firstSystem(page);
  const resource = overview.resources[0]!;
  const room = `/systems/${overview.system.deviceId}/resources/${resource.id}`;
  await page.goto(room);
  await page.getByRole('navigation', { name: 'Week' }).getByRole('link', { name: /week sheet/i }).click();
  await expect(page).toHaveURL(new RegExp(`${room}/sheet\\?week=\\d{4}-W\\d{2}$`));
  const weekKey = new URL(page.url()).searchParams.get('week')!;

  // On screen: the room, the week, a Print button and the way back; no portal header or menu.
  await expect(page.getByRole('heading', { level: 1, name: resource.name })).toBeVisible();
  const print = page.getByRole('button', { name: 'Print' });
  const back = page.getByRole('link', { name: `Back to ${resource.name}` });
  await expect(print).toBeVisible();
  await expect(back).toBeVisible();
  await expect(page.locator('[data-shell="header"]')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  const table = page.getByRole('table', { name: new RegExp(`^Bookings in ${resource.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, Week \\d+, `) });
  await expect(table).toBeVisible();
  await expect(table.getByRole('columnheader')).toHaveText(['Time', /^Monday \d+ \w+$/, /^Tuesday/, /^Wednesday/, /^Thursday/, /^Friday/, /^Saturday/, /^Sunday/]);
  const rowHeaders = table.getByRole('rowheader');
  expect(await rowHeaders.count()).toBeGreaterThan(0);
  for (const text of await rowHeaders.allTextContents()) expect(text).toMatch(/^\d{2}:\d{2}–\d{2}:\d{2}( next day)?$/);
  await expectNoSeriousA11yViolations(page, 'the week sheet');

  // The same bookings as the room's grid: every apartment booking is an "Apartment …" cell (the number without a leading LGH), maintenance too.
  const week = (await (await page.request.get(`/api/systems/${overview.system.deviceId}/resources/${resource.id}/week?week=${weekKey}`)).json()) as WeekJson;
  const apartments = week.slots.filter((s) => (s.state === 'booked' || s.state === 'used') && s.ownerLabel?.kind === 'apartment');
  const cells = table.locator('td');
  await expect(cells.filter({ hasText: /^Apartment / })).toHaveCount(apartments.length);
  await expect(cells.filter({ hasText: /^Maintenance/ })).toHaveCount(week.slots.filter((s) => s.state === 'maintenance').length);
  for (const slot of apartments.slice(0, 3)) await expect(cells.filter({ hasText: `Apartment ${apartmentNumber(slot.ownerLabel!.apartment)}` }).first()).toBeVisible();

  // Print media: the table alone with its heading and footer, no Print button, no link back.
  await page.setViewportSize(A4);
  await page.emulateMedia({ media: 'print' });
  await expect(print).toBeHidden();
  await expect(back).toBeHidden();
  await expect(table).toBeVisible();
  await expect(table.locator('thead th')).toHaveCount(8);
  await expect(page.getByText(/Printed \w+day \d+ \w+ at \d{2}:\d{2}\./)).toBeVisible();
  const box = (await page.locator('[data-week-sheet]').boundingBox())!;
  // Rows are sized in mm: the sheet fits the page's height inside its margins whatever the width.
  expect(box.width).toBeLessThanOrEqual(A4.width);
  expect(box.height).toBeLessThanOrEqual(PRINTABLE.height);
  // The rows share the page's height: the table fills most of it, room to write (issue 30 item 7;
  // it filled ~45 % before).
  const tableBox = (await table.boundingBox())!;
  expect(tableBox.height).toBeGreaterThanOrEqual(0.8 * PRINTABLE.height);
  // The screenshot of the print layout is one A4 landscape sheet: nothing runs past its height.
  const shot = pngSize(await page.screenshot({ fullPage: true }));
  expect(shot).toEqual(A4);
  expect(shot.width / shot.height).toBeCloseTo(297 / 210, 2);

  // One page of PDF, this week and the spring DST week (where a UTC schedule's Sunday moves by an hour).
  expect(pdfPages(await page.pdf({ format: 'A4', landscape: true }))).toBe(1);
  await page.goto(`${room}/sheet?week=2026-W13`);
  await expect(page.getByRole('table', { name: /Week 13, 23–29 March 2026$/ })).toBeVisible();
  expect(pdfPages(await page.pdf({ format: 'A4', landscape: true }))).toBe(1);
  // The sheet's own @page (A4 landscape) is what the browser's dialog gets when asked to follow it.
  const own = await page.pdf({ preferCSSPageSize: true });
  expect(pdfPages(own)).toBe(1);
  const mediaBox = /\/MediaBox\s*\[0 0 ([\d.]+) ([\d.]+)\]/.exec(own.toString('latin1'));
  expect(mediaBox?.slice(1).map((n) => Math.round(Number(n)))).toEqual([842, 595]);
});

test('the week sheet: a mistyped week shows this week and says so; another system is a 403 page', async ({ page, signedInAs }) => {
  await signedInAs('manager');
  const overview = await firstSystem(page);
  const resource = overview.resources[0]!;
  await page.goto(`/systems/${overview.system.deviceId}/resources/${resource.id}/sheet?week=2026-W99`);
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid week in the address.' })).toContainText('Week 2026 has weeks 01 to 53, got 99. Showing this week instead.');
  await expect(page.getByRole('table', { name: /^Bookings in / })).toBeVisible();

  const fixtures = await sandboxFixtures();
  const foreign = fixtures.approvals[1]?.deviceIds[0];
  if (!foreign) throw new Error('the demo preset should have a second approval');
  const response = await page.goto(`/systems/${foreign}/resources/00000000-0000-4000-8000-000000000000/sheet`);
  expect(response?.status()).toBe(403);
  await expect(page.getByRole('heading', { level: 1, name: 'You do not have access to this system' })).toBeVisible();
  const unknown = await page.goto(`/systems/${overview.system.deviceId}/resources/00000000-0000-4000-8000-000000000000/sheet`);
  expect(unknown?.status()).toBe(404);
});
