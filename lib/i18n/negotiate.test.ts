import { describe, expect, it } from 'vitest';
import { localeFromAcceptLanguage, requestedLocale, resolveLocale } from './negotiate';

describe('localeFromAcceptLanguage', () => {
  it.each([
    ['sv-SE,sv;q=0.9,en-US;q=0.8,en;q=0.7', 'sv'],
    ['en-US,en;q=0.9', 'en'],
    ['sv-FI', 'sv'],
    ['en-GB;q=0.5, sv;q=0.8', 'sv'],
    ['nb-NO,nb;q=0.9,en;q=0.5', 'en'],
    ['de-DE, fr;q=0.9', undefined],
    ['*', undefined],
    ['sv;q=0, en', 'en'],
    ['EN-us', 'en'],
    ['', undefined],
    ['garbage;;;,,,q=2', undefined],
    ['sv;q=abc', 'sv'],
  ])('%j → %s', (header, expected) => {
    expect(localeFromAcceptLanguage(header)).toBe(expected);
  });

  it('prefers the earlier of two equal qualities', () => {
    expect(localeFromAcceptLanguage('en;q=0.8, sv;q=0.8')).toBe('en');
  });

  it('reads a hostile header without trouble', () => {
    expect(localeFromAcceptLanguage(`${'x-'.repeat(50_000)},sv`)).toBeUndefined();
    expect(localeFromAcceptLanguage(`${'de,'.repeat(10)}sv`)).toBe('sv');
  });
});

describe('resolveLocale', () => {
  it('takes the saved choice first, then the cookie, then the browser, then the default', () => {
    expect(resolveLocale({ saved: 'en', cookie: 'sv', acceptLanguage: 'sv', fallback: 'sv' })).toBe('en');
    expect(resolveLocale({ saved: null, cookie: 'en', acceptLanguage: 'sv', fallback: 'sv' })).toBe('en');
    expect(resolveLocale({ saved: null, cookie: undefined, acceptLanguage: 'en-US', fallback: 'sv' })).toBe('en');
    expect(resolveLocale({ acceptLanguage: 'de-DE', fallback: 'sv' })).toBe('sv');
    expect(resolveLocale({ fallback: 'en' })).toBe('en');
  });

  it('falls back to the language the session signed in under before the portal’s default, when the request names none (issue 48)', () => {
    expect(resolveLocale({ saved: null, cookie: undefined, acceptLanguage: null, signedInUnder: 'en', fallback: 'sv' })).toBe('en');
    expect(resolveLocale({ acceptLanguage: 'sv', signedInUnder: 'en', fallback: 'en' })).toBe('sv');
    expect(resolveLocale({ saved: 'sv', signedInUnder: 'en', fallback: 'en' })).toBe('sv');
    expect(resolveLocale({ signedInUnder: 'de', fallback: 'sv' })).toBe('sv');
    expect(requestedLocale('sv', 'en')).toBe('sv');
    expect(requestedLocale(undefined, 'en-US')).toBe('en');
    expect(requestedLocale(null, null)).toBeUndefined();
  });

  it('ignores a saved choice or cookie naming a language the portal does not have', () => {
    expect(resolveLocale({ saved: 'nb', cookie: 'xx', acceptLanguage: 'en', fallback: 'sv' })).toBe('en');
  });
});
