import { describe, expect, it } from 'vitest';
import { parseNextFreeQuery } from './apartment-params';

const q = (s: string) => parseNextFreeQuery(new URLSearchParams(s));

describe('the next-free query', () => {
  it('reads kind, day part and count, defaulting the count to 5', () => {
    expect(q('')).toEqual({ count: 5 });
    expect(q('kind=drying&dayPart=evening&count=20')).toEqual({ kind: 'drying', dayPart: 'evening', count: 20 });
    expect(q('kind=&dayPart=')).toEqual({ count: 5 });
  });

  it('refuses anything else with a sentence', () => {
    expect(() => q('kind=sauna')).toThrow('kind must be one of laundry, drying, other.');
    expect(() => q('dayPart=night')).toThrow(/dayPart must be one of morning, afternoon, evening/);
    for (const c of ['0', '21', '2.5', 'x']) expect(() => q(`count=${c}`)).toThrow(/count must be a whole number from 1 to 20/);
    expect(() => q('colour=red')).toThrow(/Unknown parameter: colour/);
    expect(() => q('count=1&count=2')).toThrow(/at most once/);
  });
});
