import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { localWallDate } from './local-time';
import type { ExportCell, ExportTable } from './types';

/**
 * An XLSX workbook of export tables, one sheet each, written with exceljs's streaming writer:
 * rows are committed as they come (no shared-strings table, which would hold every text in
 * memory), and production waits while the output is not being read (a slow client).
 *
 * Instants are real Excel dates (a number format `yyyy-mm-dd hh:mm`) of the local wall-clock time
 * in the system's zone: Excel has no time zones, so the cell holds what the laundry room's clock
 * showed, and sorts and filters as a date.
 */

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface XlsxOptions {
  timeZone: string;
}

const DATE_FORMAT = 'yyyy-mm-dd hh:mm';
/** Rows committed between checks of the output's backlog. */
const BATCH = 500;
/** Bytes of finished output allowed to wait for the reader before production pauses. */
const OUTPUT_BACKLOG = 256 * 1024;

/** A sheet name Excel accepts: at most 31 characters, none of : \ / ? * [ ], unique in the workbook. */
export function sheetName(title: string, taken: Set<string>): string {
  const base = title.replace(/[:\\/?*[\]]/g, ' ').replace(/^'+|'+$/g, '').trim().slice(0, 31) || 'Sheet';
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n += 1) name = `${base.slice(0, 31 - String(n).length - 1)} ${n}`;
  taken.add(name.toLowerCase());
  return name;
}

function cellValue(cell: ExportCell, timeZone: string): ExcelJS.CellValue {
  if (cell === null) return null;
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? null : localWallDate(cell.getTime(), timeZone);
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  // A text that looks like a formula stays text: exceljs writes strings as strings, never formulas.
  return cell;
}

function widthOf(header: string, sample: ExportCell | undefined): number {
  const sampleWidth = sample instanceof Date ? 17 : sample === null || sample === undefined ? 0 : String(sample).length;
  return Math.min(50, Math.max(10, header.length + 2, sampleWidth + 2));
}

async function* iterate<T>(rows: AsyncIterable<T> | Iterable<T>): AsyncGenerator<T> {
  yield* rows;
}

/** Waits until the reader has taken the output down to the backlog (or the stream is gone). */
async function whileBacklogged(out: PassThrough): Promise<void> {
  while (!out.destroyed && out.readableLength > OUTPUT_BACKLOG) {
    await new Promise<void>((resolve) => {
      const done = () => {
        out.off('data', done);
        out.off('close', done);
        resolve();
      };
      // 'data' fires as the reader takes chunks; poll as a fallback in paused mode.
      out.once('data', done);
      out.once('close', done);
      setTimeout(done, 50).unref();
    });
  }
}

async function writeWorkbook(tables: readonly ExportTable[], options: XlsxOptions, out: PassThrough): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const taken = new Set<string>();
  for (const table of tables) {
    const rows = iterate(table.rows);
    const first = await rows.next();
    const sample = first.done ? undefined : first.value;
    const sheet = workbook.addWorksheet(sheetName(table.title, taken), { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = table.headers.map((header, i) => ({ key: String(i), width: widthOf(header, sample?.[i]), style: sample?.[i] instanceof Date ? { numFmt: DATE_FORMAT } : {} }));
    const header = sheet.addRow([...table.headers]);
    header.font = { bold: true };
    header.commit();
    let n = 0;
    const add = (cells: readonly ExportCell[]) => {
      const row = sheet.addRow(cells.map((c) => cellValue(c, options.timeZone)));
      cells.forEach((c, i) => {
        if (c instanceof Date) row.getCell(i + 1).numFmt = DATE_FORMAT;
      });
      row.commit();
    };
    if (sample) add(sample);
    for (let next = await rows.next(); !next.done; next = await rows.next()) {
      if (out.destroyed) {
        await rows.return(undefined);
        return;
      }
      add(next.value);
      n += 1;
      if (n % BATCH === 0) await whileBacklogged(out);
    }
    sheet.commit();
  }
  await workbook.commit();
}

/** The workbook as a web byte stream; a failure while writing errors the stream (the download breaks, never a truncated "success"). */
export function xlsxStream(tables: readonly ExportTable[], options: XlsxOptions): ReadableStream<Uint8Array> {
  const out = new PassThrough({ highWaterMark: 64 * 1024 });
  writeWorkbook(tables, options, out).catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return Readable.toWeb(out) as ReadableStream<Uint8Array>;
}
