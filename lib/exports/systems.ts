import 'server-only';
import type { SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { SystemListParams } from '@/lib/client/system-list-params';
import { SYSTEM_IMPORT_COLUMNS } from '@/lib/admin/system-import';
import { listSystemsMatching, type SystemListDeps } from '@/lib/views/systems-list';
import { csvStream } from './csv';
import { XLSX_CONTENT_TYPE, xlsxStream } from './xlsx';
import type { ExportTable } from './types';

/**
 * The systems list as a file (issue 49): the list's search and filters applied, no paging, in the
 * import's columns (lib/admin/system-import.ts) under their import names, so that an export can be
 * edited and imported again unchanged.
 */
export async function systemsExportTable(deps: SystemListDeps, visible: (deviceId: PgColumn) => SQL, params: SystemListParams): Promise<ExportTable> {
  const rows = await listSystemsMatching(deps, visible, params);
  return {
    id: 'systems',
    title: 'systems',
    headers: SYSTEM_IMPORT_COLUMNS,
    rows: rows.map((s) => [s.deviceId, s.name, s.street, s.city, s.area]),
  };
}

export const SYSTEM_EXPORT_FORMATS = { csv: 'text/csv; charset=utf-8', xlsx: XLSX_CONTENT_TYPE } as const;
export type SystemExportFormat = keyof typeof SYSTEM_EXPORT_FORMATS;

/** The table's bytes as a stream of the format asked for (text cells only: no zone is needed). */
export function systemsExportStream(table: ExportTable, format: SystemExportFormat): ReadableStream<Uint8Array> {
  return format === 'csv' ? csvStream(table, { timeZone: 'UTC' }) : xlsxStream([table], { timeZone: 'UTC' });
}
