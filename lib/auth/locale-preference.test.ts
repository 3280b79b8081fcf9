import { describe, expect, it } from 'vitest';
import { describeWithDb } from '@/tests/db';
import { issueText } from '@/tests/message-text';
import { createUser, findUserById } from '@/lib/auth/users';
import { localeChoiceSchema, localeCookie, safeReturnPath, saveUserLocale } from './locale-preference';

describeWithDb('saved language choice', (ctx) => {
  it('is kept on the account, so the next session (any device) reads it with the session check', async () => {
    const db = ctx().handle.db;
    const user = await createUser(db, { email: 'lang@example.com', name: 'Lang', role: 'manager' });
    expect((await findUserById(db, user.id))?.locale).toBeNull();
    await saveUserLocale(db, user.id, 'en');
    expect((await findUserById(db, user.id))?.locale).toBe('en');
    await saveUserLocale(db, user.id, 'sv');
    expect((await findUserById(db, user.id))?.locale).toBe('sv');
  });

  it('refuses a value that is not a language tag, in the database too', async () => {
    const db = ctx().handle.db;
    const user = await createUser(db, { email: 'lang2@example.com', name: 'Lang', role: 'manager' });
    await expect(saveUserLocale(db, user.id, 'x'.repeat(40) as 'sv')).rejects.toThrow();
    expect((await findUserById(db, user.id))?.locale).toBeNull();
  });
});

describe('language choice input', () => {
  it('accepts the portal’s languages only, with a sentence otherwise', () => {
    expect(localeChoiceSchema.parse({ locale: 'sv' })).toEqual({ locale: 'sv' });
    const refused = localeChoiceSchema.safeParse({ locale: 'nb' });
    expect(refused.success).toBe(false);
    expect(issueText(refused.error!.issues[0]!, 'en')).toBe('must be one of the portal’s languages: sv, en');
    expect(issueText(refused.error!.issues[0]!, 'sv')).toBe('måste vara ett av portalens språk: sv, en');
    expect(localeChoiceSchema.safeParse({ locale: 7 }).success).toBe(false);
  });

  it('remembers the choice in this browser for a year, Secure on https', () => {
    expect(localeCookie('en', false)).toBe('portal-locale=en; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly');
    expect(localeCookie('sv', true)).toMatch(/; Secure$/);
  });

  it('returns only to a path of the portal after a form post', () => {
    expect(safeReturnPath('/systems/abc?week=2026-W48')).toBe('/systems/abc?week=2026-W48');
    expect(safeReturnPath('//evil.example/x')).toBe('/');
    expect(safeReturnPath('/\\evil.example')).toBe('/');
    expect(safeReturnPath('https://evil.example')).toBe('/');
    expect(safeReturnPath('/a\nb')).toBe('/');
    expect(safeReturnPath(undefined)).toBe('/');
    expect(safeReturnPath(`/${'a'.repeat(3000)}`)).toBe('/');
  });
});
