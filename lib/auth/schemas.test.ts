import { describe, expect, it } from 'vitest';
import { issueText } from '@/tests/message-text';
import { newAccountSchema } from './schemas';

describe('newAccountSchema', () => {
  const base = { name: 'Olga Ops', email: 'ops@example.org', password: 'a-long-password-9', role: 'admin' };

  it('takes a manager or an admin, with a password the CLI would take', () => {
    expect(newAccountSchema.parse(base)).toEqual({ ...base, role: 'admin' });
    expect(newAccountSchema.parse({ ...base, role: 'manager', email: ' OPS@example.org ' })).toMatchObject({ role: 'manager', email: 'ops@example.org' });
  });

  it('says once what is wrong with a weak password, and refuses other roles', () => {
    const common = newAccountSchema.safeParse({ ...base, password: '1234567890' });
    expect(common.error?.issues.map((i) => [i.path.join('.'), issueText(i)])).toEqual([['password', 'is one of the most common passwords; choose another']]);
    const own = newAccountSchema.safeParse({ ...base, password: 'olga-ops1' });
    expect(own.error?.issues.map((i) => issueText(i))).toEqual(['must be at least 10 characters']);
    expect(own.error?.issues.map((i) => issueText(i, 'sv'))).toEqual(['måste vara minst 10 tecken']);
    expect(newAccountSchema.safeParse({ ...base, name: 'Olgaline Ops', password: 'Olgaline12' }).error?.issues.map((i) => issueText(i))).toEqual(['is too close to the account’s name or e-mail']);
    expect(newAccountSchema.safeParse({ ...base, role: 'owner' }).error?.issues.map((i) => issueText(i))).toEqual(['must be one of admin, manager']);
  });
});
