import { msg, type Message } from '@/lib/i18n/message';
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH } from './limits';

// Passwords people pick first, and keyboard runs. Not a breach list: the length rule does most of
// the work; this catches the obvious ones that pass it.
const COMMON = new Set([
  '1234567890', '12345678910', '0123456789', '1111111111', 'qwertyuiop', 'asdfghjkl;', 'password12', 'password123',
  'password1234', 'passw0rd123', 'lösenord123', 'losenord123', 'welcome123', 'letmein123', 'administrator', 'admin12345',
  'changeme123', 'iloveyou12', 'sommar2024', 'sommar2025', 'sommar2026', 'vinter2025', 'vinter2026', 'qwerty1234',
  'abcdefghij', 'abcd123456', 'trustno1234', 'football12', 'tvättstuga1', 'tvattstuga1', 'laundry123',
]);

/**
 * Why a password is too weak, as a Message of the `validation` namespace (the rest of a sentence
 * whose subject is the password: "must be at least 10 characters"), or null when it will do. The
 * account's e-mail and name, when given, must not be the password's core.
 */
export function passwordProblem(password: string, account: { email?: string; name?: string } = {}): Message | null {
  if (password.length < PASSWORD_MIN_LENGTH) return msg('validation.passwordTooShort', { min: PASSWORD_MIN_LENGTH });
  if (Buffer.byteLength(password, 'utf8') > PASSWORD_MAX_BYTES) return msg('validation.passwordTooLong', { max: PASSWORD_MAX_BYTES });
  const lower = password.toLowerCase();
  if (COMMON.has(lower)) return msg('validation.passwordCommon');
  if (new Set(lower).size < 5) return msg('validation.passwordFewCharacters', { min: 5 });
  const parts = [account.email?.split('@')[0], ...(account.name?.split(/\s+/) ?? [])].filter((p): p is string => !!p && p.length >= 3);
  for (const part of parts) {
    if (lower.includes(part.toLowerCase()) && lower.length - part.length < 6) return msg('validation.passwordLikeAccount');
  }
  return null;
}

const ENGLISH: Record<string, (values: Message['values']) => string> = {
  'validation.passwordTooShort': (v) => `must be at least ${String(v?.min)} characters`,
  'validation.passwordTooLong': (v) => `must be at most ${String(v?.max)} bytes (bcrypt ignores the rest)`,
  'validation.passwordCommon': () => 'is one of the most common passwords; choose another',
  'validation.passwordFewCharacters': () => 'has too few different characters; use at least 5',
  'validation.passwordLikeAccount': () => 'is too close to the account’s name or e-mail',
};

/** passwordProblem in English, for the command line (lib/admin/admin-cli.ts), which has no catalogue. */
export function passwordWeakness(password: string, account: { email?: string; name?: string } = {}): string | null {
  const problem = passwordProblem(password, account);
  return problem ? (ENGLISH[problem.key]?.(problem.values) ?? problem.key) : null;
}
