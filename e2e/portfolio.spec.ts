import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { expectNoSeriousA11yViolations } from './a11y';
import { expect, firstSystem, test } from './utils';

interface ReportApi {
  report: { total: { bookedShare: number | null; counts: { bookings: number; noShows: number } } };
}

test.describe('in English', () => {
  test.use({ locale: 'en-GB', extraHTTPHeaders: { 'Accept-Language': 'en-GB' } });

  test('the portfolio: from the navigation, rankings, trend and systems, each linking to its report, and the CSV download agrees with the report', async ({ page, signedInAs }) => {
    test.setTimeout(120_000);
    await signedInAs('manager');
    const { system } = await firstSystem(page);
    // The building's own report for the period the portfolio is about to show (each API call on a fresh connection).
    const close = { headers: { connection: 'close' } };
    const report = (await (await page.request.get(`/api/systems/${system.deviceId}/reports?period=last-3-months`, close)).json()) as ReportApi;
    expect(report.report.total.counts.bookings).toBeGreaterThan(0);

    await page.goto('/systems');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Portfolio' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Portfolio' })).toBeVisible();
    await page.getByRole('navigation', { name: 'Period' }).getByRole('link', { name: 'Last 3 months' }).click();
    await expect(page).toHaveURL(/period=last-3-months/);

    for (const caption of ['Fullest', 'Emptiest', 'Fullest in the evenings', 'Highest no-show rate']) {
      await expect(page.getByRole('table', { name: caption, exact: true })).toBeVisible();
    }
    const trend = page.getByRole('table', { name: /^All loaded booking systems by month/ });
    await expect(trend.getByRole('row')).toHaveCount(1 + 6);
    const systems = page.getByRole('table', { name: /^Booking systems in figures, page 1 of 1$/ });
    await expect(systems.getByRole('columnheader', { name: 'Booked share, evenings' })).toBeVisible();
    const row = systems.getByRole('row').filter({ has: page.getByRole('rowheader', { name: system.name }) });
    await expect(row).toHaveCount(1);

    // The figure links to the building's own report for the same period, which says the same.
    await expect(row.getByRole('cell').nth(4)).toHaveText(new Intl.NumberFormat('en').format(report.report.total.counts.bookings));
    await expectNoSeriousA11yViolations(page, 'the portfolio');

    // The systems table as CSV, as the browser saves it, parsed back.
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Booking systems (CSV)', exact: true }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^portfolio-systems-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows: string[][] = parse(await readFile(await file.path()), { delimiter: ';', bom: true });
    const head = rows[0]!;
    expect(head.slice(0, 5)).toEqual(['Booking system', 'Area', 'City', 'Status', 'Booked share']);
    const mine = rows.find((r) => r[0] === system.name)!;
    expect(mine[head.indexOf('Status')]).toBe('Loaded');
    expect(Number(mine[head.indexOf('Bookings')])).toBe(report.report.total.counts.bookings);
    expect(Number(mine[head.indexOf('No-shows')])).toBe(report.report.total.counts.noShows);
    expect(Number(mine[head.indexOf('Booked share')])).toBeCloseTo(report.report.total.bookedShare ?? 0, 3);
    expect(mine[head.indexOf('Link')]).toBe(`/systems/${system.deviceId}/reports`);
    expect(rows.at(-1)![0]).toBe('Total');

    // The workbook, and a bad trend length said in a sentence.
    const xlsx = await page.request.get('/api/reports/portfolio?file=portfolio.xlsx&period=last-3-months', close);
    expect(xlsx.status()).toBe(200);
    expect(xlsx.headers()['content-type']).toContain('spreadsheetml');
    const bad = await page.request.get('/api/reports/portfolio?file=systems.csv&months=7', close);
    expect(bad.status()).toBe(400);
    expect(await bad.text()).toContain('The trend covers 6, 12 months, not “7”.');

    await row.getByRole('link', { name: system.name }).click();
    await expect(page).toHaveURL(new RegExp(`/systems/${system.deviceId}/reports\\?period=last-3-months`));
  });
});

test.describe('in Swedish', () => {
  test.use({ locale: 'sv-SE', extraHTTPHeaders: { 'Accept-Language': 'sv-SE' } });

  test('portföljen at 375 px: Swedish words, nothing wider than the screen, the twelve-month trend and the rooms download', async ({ page, signedInAs }) => {
    test.setTimeout(120_000);
    await signedInAs('manager');
    const { system } = await firstSystem(page);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/portfolio');
    await expect(page.getByRole('heading', { level: 1, name: 'Portfölj' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Topplistor' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Störst andel oanvända', exact: true })).toBeVisible();
    await page.getByRole('navigation', { name: 'Utvecklingens längd' }).getByRole('link', { name: 'Senaste 12 månaderna' }).click();
    await expect(page).toHaveURL(/months=12/);
    await expect(page.getByRole('table', { name: /^Alla inlästa bokningssystem per månad/ }).getByRole('row')).toHaveCount(1 + 12);
    await expect(page.getByRole('table', { name: /^Bokningssystemen i siffror/ }).getByRole('rowheader', { name: system.name })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousA11yViolations(page, 'portföljen at 375 px');

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Lokaler (CSV)', exact: true }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^portfolj-lokaler-.+\.csv$/);
    const rows: string[][] = parse(await readFile(await file.path()), { delimiter: ';', bom: true });
    expect(rows[0]!.slice(0, 3)).toEqual(['Bokningssystem', 'Lokal', 'Bokad andel']);
    expect(rows.filter((r) => r[0] === system.name).length).toBeGreaterThan(0);
  });
});
