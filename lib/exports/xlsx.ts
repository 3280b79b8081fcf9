import { PassThrough, Readable, Transform, pipeline } from 'node:stream';
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
const DAY_FORMAT = 'yyyy-mm-dd';
const TIME_FORMAT = 'hh:mm';
const PERCENT_FORMAT = '0.0%';
const DAY_MS = 86_400_000;

/** The number format a cell needs, if any. */
function numFmtOf(cell: ExportCell): string | undefined {
  if (cell instanceof Date) return DATE_FORMAT;
  if (cell === null || typeof cell !== 'object') return undefined;
  return cell.kind === 'date' ? DAY_FORMAT : cell.kind === 'time' ? TIME_FORMAT : PERCENT_FORMAT;
}
/** Rows committed between checks of the output's backlog. */
const BATCH = 500;

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
  if (typeof cell === 'object') {
    if (cell.kind === 'percent') return Number.isFinite(cell.value) ? cell.value : null;
    const wall = localWallDate(cell.ms, timeZone).getTime();
    const midnight = Math.floor(wall / DAY_MS) * DAY_MS;
    // A date cell is the local day; a time cell Excel's fraction of a day (shown hh:mm).
    return cell.kind === 'date' ? new Date(midnight) : (wall - midnight) / DAY_MS;
  }
  // A text that looks like a formula stays text: exceljs writes strings as strings, never formulas.
  return cell;
}

function widthOf(header: string, sample: ExportCell | undefined): number {
  const sampleWidth = sample instanceof Date ? 17 : sample === null || sample === undefined ? 0 : typeof sample === 'object' ? 11 : String(sample).length;
  return Math.min(50, Math.max(10, header.length + 2, sampleWidth + 2));
}

async function* iterate<T>(rows: AsyncIterable<T> | Iterable<T>): AsyncGenerator<T> {
  yield* rows;
}

/**
 * Whether the output is backed up: the reader has stopped taking bytes, so the zip writer's last
 * write was refused (or the buffer is full).
 */
const backedUp = (out: PassThrough) => !out.destroyed && (out.writableNeedDrain || out.readableLength >= out.readableHighWaterMark);

const waitFor = (emitter: NodeJS.EventEmitter, events: string[], ms: number) =>
  new Promise<void>((resolve) => {
    const done = () => {
      for (const e of events) emitter.off(e, done);
      clearTimeout(timer);
      resolve();
    };
    for (const e of events) emitter.once(e, done);
    const timer = setTimeout(done, ms);
  });

/**
 * exceljs's writer has no backpressure of its own: committed rows go into its buffers and the zip
 * compresses them in the background whatever the reader does. So production is paced here: after
 * each batch it lets the zip run, stops while the reader is not reading (the output is backed up),
 * and holds back while more than MAX_IN_FLIGHT rows are committed but not yet seen leaving the zip
 * (unless the zip shows no progress, which means it wants more input before it writes).
 */
const MAX_IN_FLIGHT = 5_000;

class Pacer {
  committed = 0;
  /** Rows committed when the zip last wrote output. */
  private seenOut = 0;
  readonly counter: Transform;
  constructor(private readonly out: PassThrough) {
    this.counter = new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        this.seenOut = this.committed;
        callback(null, chunk);
      },
    });
  }

  async settle(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    for (;;) {
      if (this.out.destroyed) return;
      if (backedUp(this.out)) {
        // A fallback poll as well: the readable side can empty without a 'drain' of the writable one.
        await waitFor(this.out, ['drain', 'close'], 20);
        continue;
      }
      if (this.committed - this.seenOut <= MAX_IN_FLIGHT) return;
      const before = this.seenOut;
      await waitFor(this.counter, ['data'], 50);
      if (this.seenOut === before && !backedUp(this.out)) return;
    }
  }
}

async function writeWorkbook(tables: readonly ExportTable[], options: XlsxOptions, out: PassThrough, pacer: Pacer): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: pacer.counter, useStyles: true, useSharedStrings: false });
  const taken = new Set<string>();
  for (const table of tables) {
    const rows = iterate(table.rows);
    const first = await rows.next();
    const sample = first.done ? undefined : first.value;
    const sheet = workbook.addWorksheet(sheetName(table.title, taken), { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = table.headers.map((header, i) => ({ key: String(i), width: widthOf(header, sample?.[i]), style: numFmtOf(sample?.[i] ?? null) ? { numFmt: numFmtOf(sample?.[i] ?? null) } : {} }));
    const header = sheet.addRow([...table.headers]);
    header.font = { bold: true };
    header.commit();
    const add = (cells: readonly ExportCell[]) => {
      const row = sheet.addRow(cells.map((c) => cellValue(c, options.timeZone)));
      cells.forEach((c, i) => {
        const numFmt = numFmtOf(c);
        if (numFmt) row.getCell(i + 1).numFmt = numFmt;
      });
      row.commit();
      pacer.committed += 1;
    };
    if (sample) add(sample);
    for (let next = await rows.next(); !next.done; next = await rows.next()) {
      if (out.destroyed) {
        await rows.return(undefined);
        return;
      }
      add(next.value);
      if (pacer.committed % BATCH === 0) await pacer.settle();
    }
    sheet.commit();
  }
  await workbook.commit();
}

/** The workbook as a web byte stream; a failure while writing errors the stream (the download breaks, never a truncated "success"). */
export function xlsxStream(tables: readonly ExportTable[], options: XlsxOptions): ReadableStream<Uint8Array> {
  const out = new PassThrough({ highWaterMark: 64 * 1024 });
  const pacer = new Pacer(out);
  // The counter and the output fail and close together (a cancelled download ends the zip too).
  pipeline(pacer.counter, out, () => undefined);
  writeWorkbook(tables, options, out, pacer).catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  // Measured in bytes: toWeb's default counts chunks, and would queue 65,536 of them before pausing.
  return Readable.toWeb(out, { strategy: new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }) }) as ReadableStream<Uint8Array>;
}
