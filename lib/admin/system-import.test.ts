import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@/lib/auth/users';
import { visibleTo } from '@/lib/auth/access';
import { adminAudit, connections, systems } from '@/lib/db/schema';
import { isApiError, renderApiError } from '@/lib/errors/api-error';
import { renderMessage } from '@/lib/i18n/server';
import { DEFAULT_SYSTEM_LIST_PARAMS } from '@/lib/client/system-list-params';
import { systemsExportStream, systemsExportTable } from '@/lib/exports/systems';
import { getSystem } from '@/lib/systems/store';
import { describeWithDb } from '@/tests/db';
import { eq } from 'drizzle-orm';
import { applySystemImport, parseCsvRecords, planSystemImport, SYSTEM_IMPORT_MAX_BYTES, type ImportPlan } from './system-import';
import { listAudit } from './audit';

const bytes = (text: string) => new TextEncoder().encode(text);
const csv = (...lines: string[]) => bytes(`deviceId;name;street;city;area\r\n${lines.join('\r\n')}\r\n`);

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function xlsx(rows: (string | null)[][]): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('systems');
  for (const row of rows) sheet.addRow(row);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

const errorsOf = async (plan: ImportPlan) => Promise.all(plan.errors.map(async (e) => `${e.row} ${e.column}: ${await renderMessage('en', e.message)}`));

async function refusal(promise: Promise<unknown>): Promise<{ code: string; text: string }> {
  try {
    await promise;
  } catch (error) {
    if (isApiError(error)) return { code: error.code, text: await renderApiError(error, 'en') };
    throw error;
  }
  throw new Error('not refused');
}

describe('CSV records', () => {
  it('reads quotes, doubled quotes, line breaks in quotes, either delimiter and a BOM', () => {
    expect(parseCsvRecords('\uFEFFa;b\r\n"x;y";"say ""hi"""\r\n')).toEqual([['a', 'b'], ['x;y', 'say "hi"']]);
    expect(parseCsvRecords('a,b\n1,2')).toEqual([['a', 'b'], ['1', '2']]);
    expect(parseCsvRecords('a;b\n"two\nlines";z')).toEqual([['a', 'b'], ['two\nlines', 'z']]);
  });
});

describeWithDb('importing names and places of many systems', (ctx) => {
  const db = () => ctx().handle.db;
  const a = randomUUID();
  const b = randomUUID();
  const c = randomUUID();
  let admin = { id: '', name: 'Ada Admin' };

  beforeAll(async () => {
    const [connection] = await db().insert(connections).values({ approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' }).returning({ id: connections.id });
    await db()
      .insert(systems)
      .values([
        { deviceId: a, connectionId: connection!.id, name: 'System aaaa', street: null, city: null, area: null },
        { deviceId: b, connectionId: connection!.id, name: 'Flogsta', street: 'Kungsgatan 9', city: 'Uppsala', area: 'Norr' },
        { deviceId: c, connectionId: connection!.id, name: '=Formel', street: '-1 trappa', city: null, area: null },
      ]);
    const user = await createUser(db(), { email: `ada-${randomUUID()}@example.com`, name: 'Ada Admin', role: 'admin' });
    admin = { id: user.id, name: user.name };
  });

  it('shows per row what would change, old → new, and writes nothing', async () => {
    const plan = await planSystemImport(db(), csv(`${a};Ekhagen;Storgatan 1;Uppsala;Norr`, `${b};Flogsta;Kungsgatan 9;Uppsala;`, `${c.toUpperCase()};=Formel;-1 trappa;;`));
    expect(plan.errors).toEqual([]);
    expect(plan).toMatchObject({ kind: 'csv', rows: 3, unchanged: 1 });
    expect(plan.changes).toEqual([
      { row: 2, deviceId: a, current: 'System aaaa', changes: { name: { from: 'System aaaa', to: 'Ekhagen' }, street: { from: null, to: 'Storgatan 1' }, city: { from: null, to: 'Uppsala' }, area: { from: null, to: 'Norr' } } },
      // An empty cell clears the value.
      { row: 3, deviceId: b, current: 'Flogsta', changes: { area: { from: 'Norr', to: null } } },
    ]);
    expect((await getSystem(db(), a))?.name).toBe('System aaaa');
  });

  it('names every row in error (unknown or malformed device id, a name too long or empty, control characters, a system twice) and applies nothing', async () => {
    const unknown = randomUUID();
    const file = csv(
      `${a};Ekhagen;Storgatan 1;Uppsala;Norr`,
      `${unknown};Nowhere;;;`,
      `not-a-uuid;X;;;`,
      `${b};${'x'.repeat(121)};;;`,
      `${c};;;;`,
      `${b};Flogsta;"Kungs\tgatan";;`,
      `${a};Ekhagen igen;;;`,
    );
    const plan = await planSystemImport(db(), file);
    expect(await errorsOf(plan)).toEqual([
      `3 deviceId: No connected system has the device id ${unknown}.`,
      '4 deviceId: The device id is not a UUID.',
      '5 name: Name is longer than 120 characters.',
      '6 name: Name is empty; it is required.',
      // A row may be wrong twice: each error is named.
      '7 deviceId: The same system is already on row 5.',
      '7 street: Street contains control characters (such as a tab or line break).',
      '8 deviceId: The same system is already on row 2.',
    ]);
    const auditBefore = (await listAudit(db(), 1)).total;
    expect(await refusal(applySystemImport(db(), admin, file))).toEqual({ code: 'unprocessable_entity', text: 'The file has 7 errors; nothing was applied.' });
    // Not even the good first row.
    expect(await getSystem(db(), a)).toMatchObject({ name: 'System aaaa', street: null });
    expect((await listAudit(db(), 1)).total).toBe(auditBefore);
  });

  it('refuses a file it cannot take as a whole with a sentence: too large, no header, not UTF-8, empty', async () => {
    expect(await refusal(planSystemImport(db(), new Uint8Array(SYSTEM_IMPORT_MAX_BYTES + 1)))).toEqual({ code: 'payload_too_large', text: 'The file is larger than 2 MB.' });
    expect(await refusal(planSystemImport(db(), bytes('id;name\r\nx;y\r\n')))).toEqual({
      code: 'unprocessable_entity',
      text: 'The first row must name the columns deviceId, name, street, city, area; missing: deviceId, street, city, area.',
    });
    expect(await refusal(planSystemImport(db(), new Uint8Array([0x64, 0xff, 0xfe, 0x0a])))).toMatchObject({ code: 'unprocessable_entity', text: 'The CSV file is not UTF-8 text (save it as “CSV UTF-8”).' });
    expect(await refusal(planSystemImport(db(), new Uint8Array()))).toEqual({ code: 'bad_request', text: 'The file is empty.' });
    const many = csv(...Array.from({ length: 5_001 }, () => `${a};Ekhagen;;;`));
    expect(await refusal(planSystemImport(db(), many))).toEqual({ code: 'payload_too_large', text: 'The file has more than 5000 rows; split it into smaller files.' });
  });

  it('reads an XLSX workbook like a CSV file, and applies a file whole, in one audit entry with the count', async () => {
    const file = await xlsx([
      ['deviceId', 'name', 'street', 'city', 'area'],
      [a, 'Ekhagen', 'Storgatan 1', 'Uppsala', 'Norr'],
      [b, 'Flogsta', 'Kungsgatan 9', 'Uppsala', 'Syd'],
      [],
    ]);
    const plan = await planSystemImport(db(), file);
    expect(plan).toMatchObject({ kind: 'xlsx', rows: 2, errors: [] });
    expect(plan.changes.map((c) => c.deviceId)).toEqual([a, b]);
    const applied = await applySystemImport(db(), admin, file);
    expect(applied.changes).toHaveLength(2);
    expect(await getSystem(db(), a)).toMatchObject({ name: 'Ekhagen', street: 'Storgatan 1', city: 'Uppsala', area: 'Norr' });
    expect(await getSystem(db(), b)).toMatchObject({ area: 'Syd' });
    const [entry] = (await listAudit(db(), 1)).entries;
    expect(entry).toMatchObject({ action: 'system.import', targetType: 'portal', detail: { count: 2, format: 'xlsx', columns: ['name', 'street', 'city', 'area'] } });
    expect(await db().select().from(adminAudit).where(eq(adminAudit.action, 'system.import'))).toHaveLength(1);
    // Applying the same file again changes nothing and records nothing.
    expect((await applySystemImport(db(), admin, file)).changes).toEqual([]);
    expect(await db().select().from(adminAudit).where(eq(adminAudit.action, 'system.import'))).toHaveLength(1);
  });

  it.each(['csv', 'xlsx'] as const)('an export (%s) imported again changes nothing, formula-looking names included', async (format) => {
    const table = await systemsExportTable({ db: db() }, visibleTo(admin.id), DEFAULT_SYSTEM_LIST_PARAMS);
    const file = await readAll(systemsExportStream(table, format));
    if (format === 'csv') expect(new TextDecoder().decode(file)).toContain(`${c};'=Formel;'-1 trappa;;`);
    const plan = await planSystemImport(db(), file);
    expect(plan.errors).toEqual([]);
    expect(plan.changes).toEqual([]);
    expect(plan.unchanged).toBe(3);
  });
});
