import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { ExportTable } from './types';
import { sheetName, xlsxStream } from './xlsx';

const TZ = 'Europe/Stockholm';

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function open(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}

describe('sheetName', () => {
  it('keeps names Excel accepts: 31 characters, no : \\ / ? * [ ], unique', () => {
    const taken = new Set<string>();
    expect(sheetName('Bokningar', taken)).toBe('Bokningar');
    expect(sheetName('bokningar', taken)).toBe('bokningar 2');
    expect(sheetName('Per lägenhet: [topp] 10/år?', taken)).toBe('Per lägenhet   topp  10 år');
    expect(sheetName('x'.repeat(40), taken)).toHaveLength(31);
    expect(sheetName('', taken)).toBe('Sheet');
  });
});

describe('xlsxStream', () => {
  const start = new Date(Date.UTC(2026, 2, 29, 1, 30)); // 03:30 CEST, just after the spring change
  const bookings: ExportTable = {
    id: 'bookings',
    title: 'Bokningar',
    headers: ['Början', 'Lokal', 'Boende', 'Antal'],
    rows: [
      [start, 'Tvättstuga 1', 'Åsa Öberg', 2],
      [new Date(Date.UTC(2026, 9, 25, 1, 30)), 'Torkrum; "A"', '=HYPERLINK("x")', 3.5],
      [null, 'rad\nbrytning', '', null],
    ],
  };
  const perRoom: ExportTable = {
    id: 'rooms',
    title: 'Per lokal',
    headers: ['Lokal', 'Beläggning'],
    rows: (function* () {
      yield ['Tvättstuga 1', 0.75];
    })(),
  };

  it('opens with exceljs: one sheet per table, bold frozen header, the values, instants as local Excel dates', async () => {
    const workbook = await open(await readAll(xlsxStream([bookings, perRoom], { timeZone: TZ })));
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Bokningar', 'Per lokal']);
    const sheet = workbook.getWorksheet('Bokningar')!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Början', 'Lokal', 'Boende', 'Antal']);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    // The wall-clock time in Stockholm, as Excel (zone-less) shows it.
    const first = sheet.getRow(2).getCell(1);
    expect(first.value).toEqual(new Date(Date.UTC(2026, 2, 29, 3, 30)));
    expect(first.numFmt).toBe('yyyy-mm-dd hh:mm');
    expect(sheet.getRow(2).getCell(3).value).toBe('Åsa Öberg');
    expect(sheet.getRow(2).getCell(4).value).toBe(2);
    expect(sheet.getRow(3).getCell(1).value).toEqual(new Date(Date.UTC(2026, 9, 25, 2, 30)));
    expect(sheet.getRow(3).getCell(2).value).toBe('Torkrum; "A"');
    // Text that looks like a formula stays text.
    expect(sheet.getRow(3).getCell(3).value).toBe('=HYPERLINK("x")');
    expect(sheet.getRow(3).getCell(4).value).toBe(3.5);
    expect(sheet.getRow(4).getCell(2).value).toBe('rad\nbrytning');
    expect(sheet.rowCount).toBe(4);
    expect(sheet.getColumn(1).width).toBeGreaterThanOrEqual(16);
    expect(workbook.getWorksheet('Per lokal')!.getRow(2).values).toEqual([undefined, 'Tvättstuga 1', 0.75]);
  });

  it('does not run ahead of a reader that stops reading', async () => {
    let pulled = 0;
    const total = 200_000;
    const rows = (function* () {
      for (let i = 0; i < total; i += 1) {
        pulled += 1;
        yield [`${i}-${Math.random().toString(36)}`, i, Math.random()];
      }
    })();
    const reader = xlsxStream([{ id: 'big', title: 'Big', headers: ['a', 'b', 'c'], rows }], { timeZone: TZ }).getReader();
    await reader.read();
    // Production fills the buffers between here and the reader (a few hundred kB of zip), then stops.
    let seen = -1;
    for (let waited = 0; seen !== pulled && waited < 10_000; waited += 400) {
      seen = pulled;
      await new Promise((r) => setTimeout(r, 400));
    }
    expect(pulled).toBe(seen);
    expect(pulled).toBeLessThan(total / 4);
    await reader.cancel();
  }, 30_000);
});
