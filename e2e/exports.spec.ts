import { parse } from 'csv-parse/sync';
import { expect, firstSystem, sandboxFixtures, test } from './utils';

const HEADERS_EN = ['Date', 'Start', 'End', 'Room', 'Apartment', 'Resident', 'Status', 'Booked through the portal by'];
const HEADERS_SV = ['Datum', 'Början', 'Slut', 'Lokal', 'Lägenhet', 'Boende', 'Status', 'Bokad i portalen av'];

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

test('the bookings export: a CSV download in the reader’s language, parsed back; another system is refused', async ({ page, context, signedInAs }) => {
  test.setTimeout(150_000);
  await signedInAs('manager');
  const { system } = await firstSystem(page);
  // The demo data lies 56 days back to 21 ahead.
  const from = day(Date.now() - 60 * 86_400_000);
  const to = day(Date.now() + 25 * 86_400_000);
  const path = `/api/systems/${system.deviceId}/exports/bookings.csv?from=${from}&to=${to}`;

  const english = await context.request.get(path);
  expect(english.status()).toBe(200);
  expect(english.headers()['content-type']).toBe('text/csv; charset=utf-8');
  expect(english.headers()['content-disposition']).toMatch(new RegExp(`^attachment; filename="bookings-[a-z0-9-]+-${from}-${to}\\.csv"; filename\\*=UTF-8''`));
  const bytes = await english.body();
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const records: string[][] = parse(bytes, { delimiter: ';', bom: true });
  const [header, ...rows] = records;
  expect(header).toEqual(HEADERS_EN);
  expect(rows.length).toBeGreaterThan(20);
  for (const row of rows.slice(0, 50)) {
    expect(row).toHaveLength(HEADERS_EN.length);
    expect(row[0]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(row[1]).toMatch(/^\d{2}:\d{2}$/);
    expect(['Booked', 'Used', 'Unused (no-show)', 'Maintenance', 'Unknown']).toContain(row[6]);
    for (const cell of row) expect(cell).not.toMatch(/@[a-z0-9-]+\.[a-z]{2,}$/i);
  }

  const swedish = await context.request.get(`${path}&delimiter=comma`, { headers: { 'Accept-Language': 'sv' } });
  expect(swedish.status()).toBe(200);
  expect(swedish.headers()['content-disposition']).toMatch(/^attachment; filename="bokningar-/);
  const svRecords: string[][] = parse(await swedish.body(), { delimiter: ',', bom: true });
  expect(svRecords[0]).toEqual(HEADERS_SV);
  expect(svRecords.length).toBe(records.length);

  const fixtures = await sandboxFixtures();
  const other = fixtures.systems.find((s) => !(fixtures.approvals[0]?.deviceIds ?? []).includes(s.deviceId));
  if (other) expect((await context.request.get(`/api/systems/${other.deviceId}/exports/bookings.csv`)).status()).toBe(403);
  const reversed = await context.request.get(`/api/systems/${system.deviceId}/exports/bookings.csv?from=${to}&to=${from}`);
  expect(reversed.status()).toBe(400);
  expect(((await reversed.json()) as { error: { message: string } }).error.message).toMatch(/starts after it ends/);
});
