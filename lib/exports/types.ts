/**
 * A cell of an exported table: text, a number, an instant (written as local date-time), a typed
 * cell (an instant's local date or clock time, a share as a percentage), or empty. CSV writes the
 * typed ones as text (`2026-10-01`, `08:00`) and shares as fractions; XLSX as date, time and
 * percent cells with their number formats, so a spreadsheet sorts and computes with them.
 */
export type ExportCell = string | number | Date | TypedCell | null;

export type TypedCell = { kind: 'date'; ms: number } | { kind: 'time'; ms: number } | { kind: 'percent'; value: number };

export const localDateCell = (ms: number): TypedCell => ({ kind: 'date', ms });
export const localTimeCell = (ms: number): TypedCell => ({ kind: 'time', ms });
export const percentCell = (value: number | null): TypedCell | null => (value === null ? null : { kind: 'percent', value });

/**
 * One table of an export (a CSV file, or one sheet of a workbook): headers already in the
 * reader's language, rows produced lazily so that a year of bookings never sits in memory at once.
 */
export interface ExportTable {
  /** Sheet name and file name part, e.g. "bookings" (ASCII, no spaces). */
  id: string;
  /** Sheet title in the reader's language (at most 31 characters for XLSX). */
  title: string;
  headers: readonly string[];
  rows: AsyncIterable<readonly ExportCell[]> | Iterable<readonly ExportCell[]>;
}
