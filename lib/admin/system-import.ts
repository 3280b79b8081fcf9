import 'server-only';
import ExcelJS from 'exceljs';
import type { Database } from '@/lib/db';
import { ApiError } from '@/lib/errors/api-error';
import { msg, type Message } from '@/lib/i18n/message';
import { deviceIdSchema, systemNameSchema, systemPlaceSchema } from '@/lib/systems/schemas';
import { listSystemsByIds, updateSystemPlaces, type SystemPlaces } from '@/lib/systems/store';
import { recordAudit, type Actor } from './audit';

/**
 * Naming and placing many systems at once (issue 49): an admin uploads a CSV or XLSX file with a
 * system per row (the export's columns, lib/exports/systems.ts), sees what would change, and
 * confirms. The file is judged whole: any row in error and nothing is applied; a confirmed file is
 * applied in one transaction with one audit entry that counts the systems.
 */

/** The file's columns, in the export's order; the header row names them. */
export const SYSTEM_IMPORT_COLUMNS = ['deviceId', 'name', 'street', 'city', 'area'] as const;
export type SystemImportColumn = (typeof SYSTEM_IMPORT_COLUMNS)[number];
export const SYSTEM_IMPORT_MAX_BYTES = 2 * 1024 * 1024;
export const SYSTEM_IMPORT_MAX_ROWS = 5_000;

export type SystemFileKind = 'csv' | 'xlsx';

export interface ImportRowError {
  /** The row's number in the file (the header is row 1). */
  row: number;
  column: SystemImportColumn | null;
  message: Message;
}

export interface ImportChange {
  row: number;
  deviceId: string;
  /** The name before (shown to say which system it is). */
  current: string;
  changes: Partial<Record<Exclude<SystemImportColumn, 'deviceId'>, { from: string | null; to: string | null }>>;
}

export interface ImportPlan {
  kind: SystemFileKind;
  rows: number;
  changes: ImportChange[];
  unchanged: number;
  errors: ImportRowError[];
}

interface RawRow {
  row: number;
  cells: Record<SystemImportColumn, string>;
}

/** Which kind of file the bytes are: an XLSX is a zip ("PK\3\4"), anything else is read as CSV text. */
export function fileKindOf(bytes: Uint8Array): SystemFileKind {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04 ? 'xlsx' : 'csv';
}

/** RFC 4180 records (quotes, doubled quotes, CRLF or LF), with the delimiter the header line uses. */
export function parseCsvRecords(text: string): string[][] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const firstLine = body.slice(0, body.search(/\r?\n|$/));
  const delimiter = [';', ',', '\t'].map((d) => [d, firstLine.split(d).length] as const).sort((a, b) => b[1] - a[1])[0]![0];
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < body.length) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i += 1;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      if (c === '\r' && body[i + 1] === '\n') i += 1;
    } else field += c;
    i += 1;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  if (quoted) throw new ApiError('unprocessable_entity', msg('systemImport.unclosedQuote'));
  return records;
}

/** The export guards a text that a spreadsheet would run as a formula with an apostrophe: read back, it is the text again. */
const unguard = (value: string) => (/^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value);

async function xlsxRecords(bytes: Uint8Array): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw new ApiError('unprocessable_entity', msg('systemImport.unreadableXlsx'));
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new ApiError('unprocessable_entity', msg('systemImport.noSheet'));
  if (sheet.rowCount > SYSTEM_IMPORT_MAX_ROWS + 1) throw new ApiError('payload_too_large', msg('systemImport.tooManyRows', { max: SYSTEM_IMPORT_MAX_ROWS }));
  const records: string[][] = [];
  for (let r = 1; r <= sheet.rowCount; r += 1) {
    const row = sheet.getRow(r);
    const cells: string[] = [];
    for (let c = 1; c <= Math.max(row.cellCount, SYSTEM_IMPORT_COLUMNS.length); c += 1) {
      const value = row.getCell(c).value;
      cells.push(value === null || value === undefined ? '' : typeof value === 'object' && 'richText' in value ? value.richText.map((p) => p.text).join('') : typeof value === 'object' ? row.getCell(c).text : String(value));
    }
    records.push(cells);
  }
  return records;
}

/** The file's rows by column, or a 4xx saying why the file as a whole cannot be read. */
export async function readSystemFile(bytes: Uint8Array): Promise<{ kind: SystemFileKind; rows: RawRow[] }> {
  if (bytes.byteLength === 0) throw new ApiError('bad_request', msg('systemImport.empty'));
  if (bytes.byteLength > SYSTEM_IMPORT_MAX_BYTES) throw new ApiError('payload_too_large', msg('systemImport.tooLarge', { max: SYSTEM_IMPORT_MAX_BYTES / 1024 / 1024 }));
  const kind = fileKindOf(bytes);
  let records: string[][];
  if (kind === 'xlsx') records = await xlsxRecords(bytes);
  else {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new ApiError('unprocessable_entity', msg('systemImport.notUtf8'));
    }
    records = parseCsvRecords(text);
  }
  const [header, ...data] = records;
  const names = (header ?? []).map((h) => h.trim().replace(/^\uFEFF/, '').toLowerCase());
  const index = Object.fromEntries(SYSTEM_IMPORT_COLUMNS.map((c) => [c, names.indexOf(c.toLowerCase())])) as Record<SystemImportColumn, number>;
  const missing = SYSTEM_IMPORT_COLUMNS.filter((c) => index[c] < 0);
  if (missing.length > 0) throw new ApiError('unprocessable_entity', msg('systemImport.header', { columns: SYSTEM_IMPORT_COLUMNS.join(', '), missing: missing.join(', ') }));
  const rows: RawRow[] = [];
  data.forEach((cells, i) => {
    // Blank lines (a file's last newline, a spreadsheet's empty rows) are not rows.
    if (cells.every((c) => c.trim() === '')) return;
    rows.push({ row: i + 2, cells: Object.fromEntries(SYSTEM_IMPORT_COLUMNS.map((c) => [c, unguard(cells[index[c]] ?? '')])) as Record<SystemImportColumn, string> });
  });
  if (rows.length === 0) throw new ApiError('unprocessable_entity', msg('systemImport.noRows'));
  if (rows.length > SYSTEM_IMPORT_MAX_ROWS) throw new ApiError('payload_too_large', msg('systemImport.tooManyRows', { max: SYSTEM_IMPORT_MAX_ROWS }));
  return { kind, rows };
}

/** The issue's sentence of a zod failure on one cell: its own message key, else "not valid". */
function cellError(row: number, column: SystemImportColumn, issue: { code: string; maximum?: unknown; message: string }): ImportRowError {
  if (issue.code === 'too_big') return { row, column, message: msg('systemImport.tooLong', { column, max: Number(issue.maximum) }) };
  if (issue.code === 'too_small') return { row, column, message: msg('systemImport.required', { column }) };
  if (/control/i.test(issue.message)) return { row, column, message: msg('systemImport.control', { column }) };
  return { row, column, message: msg('systemImport.invalid', { column }) };
}

/** What the file would change, row by row, and every row's errors (nothing is written). */
export async function planSystemImport(db: Database, bytes: Uint8Array): Promise<ImportPlan> {
  const { kind, rows } = await readSystemFile(bytes);
  const errors: ImportRowError[] = [];
  const valid: { row: number; places: SystemPlaces }[] = [];
  const firstRowOf = new Map<string, number>();
  for (const { row, cells } of rows) {
    const before = errors.length;
    const id = deviceIdSchema.safeParse(cells.deviceId.trim());
    if (!id.success) errors.push({ row, column: 'deviceId', message: msg('systemImport.badDeviceId') });
    const deviceId = id.success ? id.data.toLowerCase() : '';
    if (deviceId) {
      const first = firstRowOf.get(deviceId);
      if (first !== undefined) errors.push({ row, column: 'deviceId', message: msg('systemImport.duplicate', { first }) });
      else firstRowOf.set(deviceId, row);
    }
    const name = systemNameSchema.safeParse(cells.name);
    if (!name.success) errors.push(cellError(row, 'name', name.error.issues[0]!));
    const places: Partial<Record<'street' | 'city' | 'area', string | null>> = {};
    for (const column of ['street', 'city', 'area'] as const) {
      const parsed = systemPlaceSchema.safeParse(cells[column]);
      if (parsed.success) places[column] = parsed.data;
      else errors.push(cellError(row, column, parsed.error.issues[0]!));
    }
    if (errors.length === before && name.success) {
      valid.push({ row, places: { deviceId, name: name.data, street: places.street ?? null, city: places.city ?? null, area: places.area ?? null } });
    }
  }
  const known = new Map((await listSystemsByIds(db, [...firstRowOf.keys()])).map((s) => [s.deviceId, s]));
  for (const [deviceId, row] of firstRowOf) {
    if (!known.has(deviceId)) errors.push({ row, column: 'deviceId', message: msg('systemImport.unknownDeviceId', { deviceId }) });
  }
  const changes: ImportChange[] = [];
  let unchanged = 0;
  for (const { row, places } of valid) {
    const current = known.get(places.deviceId);
    if (!current) continue;
    const change: ImportChange = { row, deviceId: places.deviceId, current: current.name, changes: {} };
    for (const column of ['name', 'street', 'city', 'area'] as const) {
      if (current[column] !== places[column]) change.changes[column] = { from: current[column], to: places[column] };
    }
    if (Object.keys(change.changes).length > 0) changes.push(change);
    else unchanged += 1;
  }
  errors.sort((a, b) => a.row - b.row);
  return { kind, rows: rows.length, changes, unchanged, errors };
}

/**
 * Applies a file: planned again (what the admin confirmed may have been changed meanwhile: the
 * file is what counts), and written only when no row is in error — every change in one
 * transaction with one audit entry, or nothing.
 */
export async function applySystemImport(db: Database, actor: Actor, bytes: Uint8Array): Promise<ImportPlan> {
  return db.transaction(async (tx) => {
    const plan = await planSystemImport(tx, bytes);
    if (plan.errors.length > 0) throw new ApiError('unprocessable_entity', msg('systemImport.hasErrors', { count: plan.errors.length }));
    if (plan.changes.length === 0) return plan;
    const current = new Map((await listSystemsByIds(tx, plan.changes.map((c) => c.deviceId))).map((s) => [s.deviceId, s]));
    const rows: SystemPlaces[] = plan.changes.map((c) => {
      const s = current.get(c.deviceId)!;
      const to = (column: 'name' | 'street' | 'city' | 'area') => (c.changes[column] ? c.changes[column].to : s[column]);
      return { deviceId: c.deviceId, name: to('name') ?? s.name, street: to('street'), city: to('city'), area: to('area') };
    });
    await updateSystemPlaces(tx, rows);
    await recordAudit(tx, actor, {
      action: 'system.import',
      targetType: 'portal',
      detail: { count: plan.changes.length, format: plan.kind, columns: [...new Set(plan.changes.flatMap((c) => Object.keys(c.changes)))] },
    });
    return plan;
  });
}
