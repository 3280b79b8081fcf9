/** A cell of an exported table: text, a number, an instant (written as local date-time), or empty. */
export type ExportCell = string | number | Date | null;

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
