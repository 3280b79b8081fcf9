import { describe, expect, it } from 'vitest';
import { thrownText } from '@/tests/message-text';
import { parseNextFreeQuery } from './apartment-params';

const q = (s: string) => parseNextFreeQuery(new URLSearchParams(s));

describe('the next-free query', () => {
  it('reads kind, day part and count, defaulting the count to 5', () => {
    expect(q('')).toEqual({ count: 5 });
    expect(q('kind=drying&dayPart=evening&count=20')).toEqual({ kind: 'drying', dayPart: 'evening', count: 20 });
    expect(q('kind=&dayPart=')).toEqual({ count: 5 });
  });

  it('refuses anything else with a sentence', () => {
    expect(thrownText(() => q('kind=sauna'))).toBe('kind must be one of laundry, drying, other.');
    expect(thrownText(() => q('dayPart=night'))).toMatch(/dayPart must be one of morning, afternoon, evening/);
    // Issue 47: z.coerce read 0x10 as 16 and 1e1 as 10.
    for (const c of ['0', '21', '2.5', 'x', '0x10', '1e1', '0b11', ' ']) expect(thrownText(() => q(`count=${c}`))).toMatch(/count must be a whole number from 1 to 20/);
    expect(thrownText(() => q('colour=red'))).toMatch(/Unknown parameter: colour/);
    expect(thrownText(() => q('count=1&count=2'))).toMatch(/at most once/);
  });
});
