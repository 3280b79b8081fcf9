import { localDateTimeText } from './local-time';
import type { ExportCell, ExportTable } from './types';

/**
 * RFC 4180 CSV of an export table, streamed. Semicolon by default: Swedish Excel reads `;` as the
 * list separator (the decimal comma takes `,`); `,` for everything else. UTF-8 with a BOM, without
 * which Excel reads the file as Windows-1252 and mangles å, ä, ö.
 */

export const CSV_DELIMITERS = { semicolon: ';', comma: ',' } as const;
export type CsvDelimiterName = keyof typeof CSV_DELIMITERS;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[CsvDelimiterName];

export interface CsvOptions {
  delimiter?: CsvDelimiter;
  /** The zone instants are written in, as local `yyyy-MM-dd HH:mm` (the system's zone). */
  timeZone: string;
}

export const UTF8_BOM = '\uFEFF';
const CRLF = '\r\n';

/** Cells a spreadsheet would run as a formula (OWASP CSV injection): = + - @, tab, CR. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell as written: apostrophe-guarded if it would start a formula, quoted when it must be. */
export function csvText(value: string, delimiter: CsvDelimiter): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  if (text.includes(delimiter) || text.includes('"') || text.includes('\n') || text.includes('\r')) {
    return `"${text.replaceAll('"', '""')}"`;
  }
  return text;
}

/** One cell: numbers plainly (a point for decimals, never grouped), instants as local date-time, null empty. */
export function csvCell(cell: ExportCell, options: Required<CsvOptions>): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? '' : localDateTimeText(cell.getTime(), options.timeZone);
  if (typeof cell === 'object') {
    if (cell.kind === 'percent') return Number.isFinite(cell.value) ? String(cell.value) : '';
    const text = localDateTimeText(cell.ms, options.timeZone);
    return cell.kind === 'date' ? text.slice(0, 10) : text.slice(11);
  }
  return csvText(cell, options.delimiter);
}

/** One record with its CRLF. */
export function csvRow(cells: readonly ExportCell[], options: Required<CsvOptions>): string {
  let line = '';
  for (let i = 0; i < cells.length; i += 1) {
    if (i > 0) line += options.delimiter;
    line += csvCell(cells[i] ?? null, options);
  }
  return line + CRLF;
}

/** Rows are joined into chunks of about this many characters before being encoded and queued. */
const CHUNK_CHARS = 64 * 1024;

/**
 * The table as a byte stream that pulls its rows on demand: `pull` runs only when the consumer
 * has room (highWaterMark one chunk), so a slow client holds the reader, not the server's memory.
 * Cancelling the stream (the client went away) ends the row source through its `return`.
 */
export function csvStream(table: ExportTable, options: CsvOptions): ReadableStream<Uint8Array> {
  const opts: Required<CsvOptions> = { delimiter: options.delimiter ?? ';', timeZone: options.timeZone };
  const encoder = new TextEncoder();
  let iterator: AsyncIterator<readonly ExportCell[]> | Iterator<readonly ExportCell[]> | undefined;
  let headerSent = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let text = '';
        if (!headerSent) {
          headerSent = true;
          text = UTF8_BOM + csvRow(table.headers, opts);
          iterator = Symbol.asyncIterator in table.rows ? table.rows[Symbol.asyncIterator]() : table.rows[Symbol.iterator]();
        }
        while (text.length < CHUNK_CHARS) {
          const next = await iterator!.next();
          if (next.done) {
            if (text) controller.enqueue(encoder.encode(text));
            controller.close();
            return;
          }
          text += csvRow(next.value, opts);
        }
        controller.enqueue(encoder.encode(text));
      },
      async cancel() {
        await iterator?.return?.();
      },
    },
    { highWaterMark: 1, size: () => 1 },
  );
}
