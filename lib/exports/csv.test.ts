import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvCell, csvRow, csvStream, csvText } from './csv';
import type { ExportCell, ExportTable } from './types';

const TZ = 'Europe/Stockholm';

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const tricky: ExportCell[][] = [
  ['Brf Linnégatan; tvättstuga 1', 'say "hi"', 'line one\nline two', 'Åsa Öberg-Ärlig', 42, 3.5, -2],
  ['=SUM(A1:A2)', '+46 8 123', '-1+1', '@cmd', '\tindent', '\rreturn', null],
  ['', 'plain', 'comma, here', 'carriage\r\nreturn', 0, new Date(Date.UTC(2026, 2, 29, 1, 30)), new Date(Date.UTC(2026, 9, 25, 1, 30))],
];

describe('csv cells', () => {
  it('quotes only what must be quoted and doubles quotes', () => {
    expect(csvText('plain', ';')).toBe('plain');
    expect(csvText('a;b', ';')).toBe('"a;b"');
    expect(csvText('a;b', ',')).toBe('a;b');
    expect(csvText('a,b', ',')).toBe('"a,b"');
    expect(csvText('say "hi"', ';')).toBe('"say ""hi"""');
    expect(csvText('a\nb', ';')).toBe('"a\nb"');
    expect(csvText('a\rb', ';')).toBe('"a\rb"');
  });

  it('guards text that a spreadsheet would run as a formula with an apostrophe (OWASP), never numbers', () => {
    for (const t of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(csvText(t, ';').replace(/^"/, '').startsWith(`'${t[0]}`)).toBe(true);
    expect(csvCell(-5, { delimiter: ';', timeZone: TZ })).toBe('-5');
    expect(csvText('a=b', ';')).toBe('a=b');
  });

  it('writes numbers plainly, instants as local yyyy-MM-dd HH:mm across both DST changes, empty for null', () => {
    const o = { delimiter: ';', timeZone: TZ } as const;
    expect(csvCell(1234567.25, o)).toBe('1234567.25');
    expect(csvCell(null, o)).toBe('');
    expect(csvCell(new Date(Date.UTC(2026, 0, 15, 23, 30)), o)).toBe('2026-01-16 00:30');
    // 29 March 2026: 02:00 CET jumps to 03:00 CEST (01:00 UTC).
    expect(csvCell(new Date(Date.UTC(2026, 2, 29, 0, 59)), o)).toBe('2026-03-29 01:59');
    expect(csvCell(new Date(Date.UTC(2026, 2, 29, 1, 0)), o)).toBe('2026-03-29 03:00');
    // 25 October 2026: 03:00 CEST falls back to 02:00 CET (01:00 UTC); 02:30 happens twice.
    expect(csvCell(new Date(Date.UTC(2026, 9, 25, 0, 30)), o)).toBe('2026-10-25 02:30');
    expect(csvCell(new Date(Date.UTC(2026, 9, 25, 1, 30)), o)).toBe('2026-10-25 02:30');
    expect(csvCell(new Date(Date.UTC(2026, 6, 1, 12, 0)), { delimiter: ';', timeZone: 'America/New_York' })).toBe('2026-07-01 08:00');
    expect(csvRow(['a', 1, null], o)).toBe('a;1;\r\n');
  });
});

describe('csvStream', () => {
  const table = (rows: ExportTable['rows']): ExportTable => ({ id: 'bookings', title: 'Bokningar', headers: ['Datum', 'Lägenhet; nr', 'Boende "namn"', 'A', 'B', 'C', 'D'], rows });

  it('parses back with a real CSV parser to the same values: BOM, CRLF, delimiters, quotes, line breaks, Swedish letters, guarded formulas', async () => {
    for (const delimiter of [';', ','] as const) {
      const bytes = await readAll(csvStream(table(tricky), { delimiter, timeZone: TZ }));
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = bytes.toString('utf8');
      expect(text.endsWith('\r\n')).toBe(true);
      // Four records each ending in CRLF, and one CRLF inside a quoted field: six pieces.
      expect(text.split('\r\n')).toHaveLength(6);
      const records: string[][] = parse(bytes, { delimiter, bom: true, relax_column_count: false });
      expect(records[0]).toEqual(['Datum', 'Lägenhet; nr', 'Boende "namn"', 'A', 'B', 'C', 'D']);
      expect(records[1]).toEqual(['Brf Linnégatan; tvättstuga 1', 'say "hi"', 'line one\nline two', 'Åsa Öberg-Ärlig', '42', '3.5', '-2']);
      expect(records[2]).toEqual(["'=SUM(A1:A2)", "'+46 8 123", "'-1+1", "'@cmd", "'\tindent", "'\rreturn", '']);
      expect(records[3]).toEqual(['', 'plain', 'comma, here', 'carriage\r\nreturn', '0', '2026-03-29 03:30', '2026-10-25 02:30']);
      expect(records).toHaveLength(4);
    }
  });

  it('reads an async row source, and an empty table is its header alone', async () => {
    function* rows() {
      yield ['x', 1] as const;
      yield ['y', 2] as const;
    }
    const text = (await readAll(csvStream({ id: 't', title: 't', headers: ['h1', 'h2'], rows: rows() }, { timeZone: TZ }))).toString('utf8');
    expect(text).toBe('\uFEFFh1;h2\r\nx;1\r\ny;2\r\n');
    expect((await readAll(csvStream({ id: 't', title: 't', headers: ['h'], rows: [] }, { timeZone: TZ }))).toString('utf8')).toBe('\uFEFFh\r\n');
  });

  const ROWS = 200_000;
  const filler = 'x'.repeat(400);
  function generated(counter: { pulled: number; returned: boolean }) {
    return (function* () {
      try {
        for (let i = 0; i < ROWS; i += 1) {
          counter.pulled += 1;
          yield [`row ${i}`, i, new Date(Date.UTC(2026, 0, 1) + i * 60_000), `Lägenhet ${i % 500}`, filler, null, 'end'] as const;
        }
      } finally {
        counter.returned = true;
      }
    })();
  }

  it('pulls rows only as the reader reads: one chunk read takes a few hundred rows, not the table; cancelling ends the source', async () => {
    const counter = { pulled: 0, returned: false };
    const reader = csvStream(table(generated(counter)), { timeZone: TZ }).getReader();
    const first = await reader.read();
    expect(first.value?.byteLength).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 50));
    // One chunk buffered ahead at most (the high-water mark), each ~64 kB of ~450-byte rows.
    expect(counter.pulled).toBeLessThan(600);
    await reader.cancel();
    expect(counter.returned).toBe(true);
    expect(counter.pulled).toBeLessThan(600);
  });

  it('streams 200k rows (~90 MB) while the heap stays flat', async () => {
    const counter = { pulled: 0, returned: false };
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    let bytes = 0;
    let chunks = 0;
    for await (const chunk of csvStream(table(generated(counter)), { timeZone: TZ }) as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      if (++chunks % 50 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    expect(counter.pulled).toBe(ROWS);
    expect(bytes).toBeGreaterThan(80 * 2 ** 20);
    // The whole file held in memory would be ≥ 80 MB (as bytes; twice that as strings).
    expect((peak - before) / 2 ** 20).toBeLessThan(40);
  }, 60_000);
});
