import { randomBytes, randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { handleApiError } from '@/lib/errors/api-error';
import { createUser, setManagerSystems } from '@/lib/auth/users';
import type { SessionUser } from '@/lib/auth/schemas';
import { reservationRequests } from '@/lib/db/schema';
import { mirrorSnapshot } from '@/lib/mirror/snapshot';
import { readReservations, readState, readUsers } from '@/lib/mirror/store';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { parsePeriod } from '@/lib/reports/period';
import { storeConnection } from '@/lib/systems/store';
import type { ViewDeps } from '@/lib/views/freshness';
import { startConnectedSandbox, type ConnectedSandbox } from '@/tests/connected-sandbox';
import { checkSystemAccess } from '@/lib/auth/access';
import { loadSystemReport } from '@/lib/reports/load';
import { describeWithDb } from '@/tests/db';
import { bookingsExportTable } from './bookings';
import { exportResponse } from './export-route';
import { localClockText, localDateText } from './local-time';
import type { ExportCell } from './types';

const TZ = 'Europe/Stockholm';
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function bytesOf(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

describeWithDb('GET /api/systems/{deviceId}/exports/{file}', (ctx) => {
  let connected: ConnectedSandbox;
  let manager: SessionUser;
  let otherSystem: string;
  let bookedThroughPortal: string;
  const from = iso(Date.now() - 40 * DAY);
  const to = iso(Date.now() + 20 * DAY);

  beforeAll(async () => {
    const { db } = ctx().handle;
    connected = await startConnectedSandbox(db, { sql: ctx().handle.sql, preset: 'demo', seed: 5 });
    otherSystem = randomUUID();
    await storeConnection(db, {
      approvalId: randomUUID(),
      apiKey: connected.apiKey,
      deviceIds: [connected.deviceId, otherSystem],
      names: new Map([[connected.deviceId, 'Brf Linnégatan 12']]),
      encryptionKey: randomBytes(32),
    });
    manager = await createUser(db, { email: `m-${randomUUID()}@example.com`, name: 'Export Manager', role: 'manager' });
    await setManagerSystems(db, manager.id, [connected.deviceId]);
    // One booking made through the portal, by a named manager.
    const [booking] = (await readReservations(db, connected.deviceId, { from: new Date(Date.parse(from)), to: new Date(Date.parse(to)) })).filter((r) => r.ownerType !== 'Service');
    if (!booking) throw new Error('the demo data has no bookings in the period');
    bookedThroughPortal = booking.id;
    await db.insert(reservationRequests).values({
      kind: 'create',
      deviceId: connected.deviceId,
      resourceId: booking.resourceId,
      reservationId: booking.id,
      startTime: new Date(booking.startTime),
      endTime: new Date(booking.endTime),
      requestedBy: manager.id,
      requestedByName: 'Karin Förvaltare',
      status: 'succeeded',
    });
  }, 120_000);

  afterAll(() => connected.stop());

  const view = (): ViewDeps => ({
    db: ctx().handle.db,
    source: () => Promise.resolve(serviceMirrorSource(connected.client, connected.apiKey)),
    freshnessMs: 600_000,
  });
  const get = (file: string, query: string, options: { user?: SessionUser; locale?: 'en' | 'sv'; deviceId?: string } = {}) =>
    exportResponse(
      new Request(`http://portal.test/api/systems/${options.deviceId ?? connected.deviceId}/exports/${file}?${query}`),
      { deviceId: options.deviceId ?? connected.deviceId, file },
      { view: view(), user: options.user ?? manager, locale: options.locale ?? 'en' },
    ).catch((error: unknown) => handleApiError(error, options.locale ?? 'en'));

  /** The reservations starting in [from, to] as the mirror holds them, in (start, id) order. */
  async function expected() {
    const period = parsePeriod({ from, to }, TZ, Date.now());
    if (!period.ok) throw new Error('bad test period');
    const rows = await readReservations(ctx().handle.db, connected.deviceId, { from: new Date(period.period.startMs), to: new Date(period.period.endMs) });
    return rows.filter((r) => Date.parse(r.startTime) >= period.period.startMs);
  }

  it('streams the period’s bookings as CSV: headers in the reader’s language, BOM, one row per booking in order, names never e-mails', async () => {
    const response = await get('bookings.csv', `from=${from}&to=${to}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="bookings-brf-linnegatan-12-${from}-${to}.csv"; filename*=UTF-8''bookings-Brf-Linn%C3%A9gatan-12-${from}-${to}.csv`,
    );
    const bytes = await bytesOf(response);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records: string[][] = parse(bytes, { delimiter: ';', bom: true });
    const [header, ...rows] = records;
    expect(header).toEqual(['Date', 'Start', 'End', 'Room', 'Apartment', 'Resident', 'Status', 'Booked through the portal by']);
    const want = await expected();
    expect(rows.length).toBe(want.length);
    expect(rows.length).toBeGreaterThan(10);

    const { db } = ctx().handle;
    const snapshot = (await mirrorSnapshot(db, connected.deviceId, (await readState(db, connected.deviceId))!))!;
    const users = new Map((await readUsers(db, connected.deviceId)).map((u) => [u.id, u]));
    const emails = new Set([...users.values()].map((u) => u.email).filter(Boolean));
    want.forEach((r, i) => {
      const row = rows[i]!;
      const startMs = Date.parse(r.startTime);
      expect(row[0]).toBe(localDateText(startMs, TZ));
      expect(row[1]).toBe(localClockText(startMs, TZ));
      expect(row[2]).toContain(localClockText(Date.parse(r.endTime), TZ));
      expect(row[3]).toBe(snapshot.resourceById.get(r.resourceId)!.name);
      if (r.ownerType === 'Service') {
        expect(row.slice(4, 7)).toEqual(['', '', 'Maintenance']);
      } else {
        const groupId = r.ownerType === 'Group' ? r.ownerId : users.get(r.userId ?? '')?.userGroupId;
        const group = snapshot.groupById.get(groupId ?? '');
        expect(row[4]).toBe(group?.apartmentId.trim() || group?.name.trim() || '');
        expect(row[5]).toBe(users.get(r.userId ?? '')?.name.trim() ?? '');
        const status = r.status === 'Used' ? 'Used' : r.status === 'Unused' ? (Date.parse(r.endTime) <= Date.now() ? 'Unused (no-show)' : 'Booked') : 'Unknown';
        expect(row[6]).toBe(status);
      }
      expect(row[7]).toBe(r.id === bookedThroughPortal ? 'Karin Förvaltare' : '');
      for (const cell of row) expect(emails.has(cell)).toBe(false);
    });
  }, 60_000);

  it('answers Swedish headers and file name to a Swedish reader, and a comma-separated file on request', async () => {
    const response = await get('bookings.csv', `from=${from}&to=${to}&delimiter=comma`, { locale: 'sv' });
    expect(response.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="bokningar-komma-brf-linnegatan-12-${from}-${to}\\.csv"`));
    const records: string[][] = parse(await bytesOf(response), { delimiter: ',', bom: true });
    const [header, ...rows] = records;
    expect(header).toEqual(['Datum', 'Början', 'Slut', 'Lokal', 'Lägenhet', 'Boende', 'Status', 'Bokad i portalen av']);
    expect(rows.length).toBe((await expected()).length);
    for (const row of rows) expect(['Bokad', 'Använd', 'Oanvänd bokning', 'Underhåll', 'Okänd']).toContain(row[6]);
  }, 60_000);

  it('streams the same bookings as XLSX: one sheet, the rows', async () => {
    const response = await get('bookings.xlsx', `from=${from}&to=${to}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="bookings-brf-linnegatan-12-.*\.xlsx"/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await bytesOf(response)) as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Bookings']);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).getCell(8).value).toBe('Booked through the portal by');
    expect(sheet.rowCount).toBe((await expected()).length + 1);
    // Issue 30 item 6: Date, Start and End are real date and time cells, not text.
    const first = (await expected())[0]!;
    const date = sheet.getRow(2).getCell(1);
    expect(date.type).toBe(ExcelJS.ValueType.Date);
    expect(date.numFmt).toBe('yyyy-mm-dd');
    expect(date.value).toEqual(new Date(`${localDateText(Date.parse(first.startTime), TZ)}T00:00:00Z`));
    const start = sheet.getRow(2).getCell(2);
    // A time of day: Excel's fraction of a day, which exceljs reads back as a date on 1899-12-30.
    expect(start.type).toBe(ExcelJS.ValueType.Date);
    expect(start.numFmt).toBe('hh:mm');
    expect((start.value as Date).toISOString().slice(11, 16)).toBe(localClockText(Date.parse(first.startTime), TZ));
    expect(sheet.getRow(2).getCell(3).type).toBe(ExcelJS.ValueType.Date);
  }, 60_000);

  it('exports the report’s tables: one per CSV (table=), all as sheets of the workbook, totals equal to the report', async () => {
    const period = parsePeriod({ from, to }, TZ, Date.now());
    if (!period.ok) throw new Error('bad test period');
    const system = await checkSystemAccess(ctx().handle.db, manager, connected.deviceId);
    const { report } = await loadSystemReport(view(), system, period.period);
    const rooms = await get('report.csv', `from=${from}&to=${to}&table=rooms`);
    expect(rooms.status).toBe(200);
    expect(rooms.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="bookings-by-room-brf-linnegatan-12-${from}-${to}\\.csv"`));
    const [header, ...rows]: string[][] = parse(await bytesOf(rooms), { delimiter: ';', bom: true });
    expect(header?.[0]).toBe('Room');
    expect(rows).toHaveLength(report.rooms.length + 1);
    const total = rows.at(-1)!;
    expect(Number(total[header!.indexOf('Bookings')])).toBe(report.total.counts.bookings);
    const swedish = await get('report.csv', `from=${from}&to=${to}&table=apartments`, { locale: 'sv' });
    expect(swedish.headers.get('content-disposition')).toMatch(/^attachment; filename="bokningar-per-lagenhet-/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await bytesOf(await get('report.xlsx', `from=${from}&to=${to}`))) as unknown as ArrayBuffer);
    expect(workbook.worksheets).toHaveLength(4);
    // Shares are percent cells; managers are named with their e-mail address, never an account id.
    const share = workbook.worksheets[0]!.getRow(2).getCell(2);
    expect(share.type).toBe(ExcelJS.ValueType.Number);
    expect(share.numFmt).toBe('0.0%');
    const managers = workbook.worksheets[3]!;
    expect(managers.getRow(1).values).toEqual([undefined, 'Manager', 'E-mail', 'Booked through the portal']);
    expect(managers.getRow(2).getCell(1).value).toBe('Karin Förvaltare');
    expect(managers.getRow(2).getCell(2).value).toBe(manager.email);
    for (let r = 2; r <= managers.rowCount; r += 1) {
      for (const cell of [managers.getRow(r).getCell(1), managers.getRow(r).getCell(2)]) expect(cell.text).not.toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    }
    // Each table's CSV, and each delimiter, under its own file name.
    const hours = await get('report.csv', `from=${from}&to=${to}&table=hours`);
    expect(hours.headers.get('content-disposition')).toMatch(/^attachment; filename="bookings-by-hour-/);
    const comma = await get('bookings.csv', `from=${from}&to=${to}&delimiter=comma`);
    expect(comma.headers.get('content-disposition')).toMatch(/^attachment; filename="bookings-comma-/);
    const refused = await get('report.csv', `from=${from}&to=${to}&table=${encodeURIComponent("' OR 1=1")}`);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe("The report has no table “' OR 1=1”. Choose one of rooms, hours, apartments, managers.");
  }, 60_000);

  it('reads in keyset batches without losing or repeating a row at the batch edges', async () => {
    const { db } = ctx().handle;
    const period = parsePeriod({ from, to }, TZ, Date.now());
    if (!period.ok) throw new Error('bad test period');
    const snapshot = (await mirrorSnapshot(db, connected.deviceId, (await readState(db, connected.deviceId))!))!;
    const collect = async (batchSize: number) => {
      const table = await bookingsExportTable({ db, deviceId: connected.deviceId, timeZone: TZ, period: period.period, locale: 'en', snapshot, batchSize });
      const out: (readonly ExportCell[])[] = [];
      for await (const row of table.rows) out.push(row);
      return out;
    };
    const whole = await collect(100_000);
    expect(await collect(7)).toEqual(whole);
    expect(whole.length).toBe((await expected()).length);
  }, 60_000);

  it('refuses with a sentence: another system (403), a bad id, period, delimiter (400), an unknown file (404)', async () => {
    const forbidden = await get('bookings.csv', '', { deviceId: otherSystem });
    expect(forbidden.status).toBe(403);
    expect((await get('bookings.csv', '', { deviceId: randomUUID() })).status).toBe(403);
    expect((await get('bookings.csv', '', { deviceId: 'not-a-uuid' })).status).toBe(400);
    const reversed = await get('bookings.csv', 'from=2026-03-01&to=2026-01-01');
    expect(reversed.status).toBe(400);
    expect(((await reversed.json()) as { error: { message: string } }).error.message).toBe('The period starts after it ends (2026-03-01 is after 2026-01-01).');
    expect((await get('bookings.csv', 'from=2024-01-01&to=2026-12-31')).status).toBe(400);
    expect((await get('bookings.csv', 'from=2026-02-30&to=2026-03-01')).status).toBe(400);
    expect((await get('bookings.csv', 'period=forever')).status).toBe(400);
    const delimiter = await get('bookings.csv', 'delimiter=tab');
    expect(delimiter.status).toBe(400);
    expect(((await delimiter.json()) as { error: { reason: string } }).error.reason).toBe('badDelimiter');
    for (const file of ['report.pdf', 'bookings.json', 'bookings.pdf', '..%2Fetc']) expect((await get(file, '')).status).toBe(404);
    const sv = await get('bookings.csv', 'from=2026-03-01&to=2026-01-01', { locale: 'sv' });
    expect(((await sv.json()) as { error: { message: string } }).error.message).not.toMatch(/The period/);
  }, 60_000);
});
