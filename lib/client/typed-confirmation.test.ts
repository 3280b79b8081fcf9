import { describe, expect, it } from 'vitest';
import { confirmationMatches } from './typed-confirmation';

describe('confirmationMatches', () => {
  const anna = ['Anna Åberg', 'anna.aberg3@example.com'];

  it('takes the name or the e-mail address, whatever their case and spacing', () => {
    expect(confirmationMatches('Anna Åberg', anna)).toBe(true);
    expect(confirmationMatches('  anna   åberg ', anna)).toBe(true);
    expect(confirmationMatches('ANNA.ABERG3@EXAMPLE.COM', anna)).toBe(true);
    // A decomposed Å (as some keyboards type it) is the same letter.
    expect(confirmationMatches('Anna A\u030Aberg', anna)).toBe(true);
  });

  it('refuses anything else: a housemate, part of the name, nothing', () => {
    expect(confirmationMatches('Bo Åberg', anna)).toBe(false);
    expect(confirmationMatches('Anna', anna)).toBe(false);
    expect(confirmationMatches('', anna)).toBe(false);
    expect(confirmationMatches('   ', ['', null])).toBe(false);
    expect(confirmationMatches(undefined, anna)).toBe(false);
  });
});
