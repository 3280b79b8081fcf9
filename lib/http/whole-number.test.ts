import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseWholeNumber, wholeNumberInput } from './whole-number';

describe('parseWholeNumber', () => {
  it('reads decimal digits, spaces around allowed', () => {
    expect(parseWholeNumber('16')).toBe(16);
    expect(parseWholeNumber(' 0 ')).toBe(0);
    expect(parseWholeNumber('007')).toBe(7);
  });

  it('refuses every other way Number() reads a number (issue 47)', () => {
    for (const text of ['0x10', '0X10', '0b11', '0o17', '1e3', '1.0', '1.5', '+5', '-1', '', ' ', '16px', 'Infinity', '١٦', '1_000', '9'.repeat(16)]) {
      expect(parseWholeNumber(text), text).toBeUndefined();
    }
  });
});

describe('wholeNumberInput', () => {
  const schema = z.preprocess(wholeNumberInput, z.number().int().min(1).max(100)).optional();
  it('passes JSON numbers and digit texts, and keeps undefined', () => {
    expect(schema.parse(16)).toBe(16);
    expect(schema.parse('16')).toBe(16);
    expect(schema.parse(undefined)).toBeUndefined();
  });

  it('refuses hexadecimal, exponents, booleans, null and arrays, which z.coerce took', () => {
    for (const value of ['0x10', '1e1', true, null, [], [5], '']) expect(schema.safeParse(value).success, JSON.stringify(value)).toBe(false);
    expect(z.coerce.number().int().min(1).max(100).safeParse('0x10').success).toBe(true); // what it replaced
  });
});
