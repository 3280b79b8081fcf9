import { RuleTester, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, it } from 'vitest';
// @ts-expect-error -- a plain ESM module without types (ESLint loads it directly).
import { noLiteralUiString as rule } from './no-literal-ui-string.mjs';

const noLiteralUiString = rule as Rule.RuleModule;
// RuleTester reports through the test framework's hooks (afterAll is not in its typings).
Object.assign(RuleTester, { afterAll, describe, it });

const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
});

tester.run('no-literal-ui-string', noLiteralUiString, {
  valid: [
    { code: `const A = () => <p>{t('greeting')}</p>;` },
    { code: `const A = () => <p className="mx-auto text-sm" aria-live="polite" aria-describedby="hint">{count} · {a}–{b}</p>;` },
    { code: `const A = () => <button aria-label={t('close')} title={t('close')}>×</button>;` },
    { code: `const A = () => <p>{' '}{'—'}{value ?? '–'}</p>;` },
    { code: `const items = [{ href: '/systems', label: t('systems') }];` },
    { code: `const A = () => <input type="search" name="q" autoComplete="off" />;` },
    { code: `const state = { title: 'wasBooked', detail: null };` },
  ],
  invalid: [
    { code: `const A = () => <p>Sign out</p>;`, errors: [{ messageId: 'literal' }] },
    { code: `const A = () => <button aria-label="Close dialog" />;`, errors: [{ messageId: 'literal' }] },
    { code: `const A = () => <input placeholder={'Search residents'} />;`, errors: [{ messageId: 'literal' }] },
    { code: `const A = () => <p>{pending ? 'Signing out…' : 'Sign out'}</p>;`, errors: [{ messageId: 'literal' }, { messageId: 'literal' }] },
    { code: 'const A = () => <p>{`Week ${n}`}</p>;', errors: [{ messageId: 'literal' }] },
    { code: `const A = () => <p>{error && 'Could not save'}</p>;`, errors: [{ messageId: 'literal' }] },
    { code: `const items = [{ href: '/systems', label: 'Systems' }];`, errors: [{ messageId: 'literal' }] },
    { code: `const A = () => <img alt="Laundry room" src="/x.png" />;`, errors: [{ messageId: 'literal' }] },
    { code: `const status = { label: 'Pending', detail: "Waiting for the service's answer." };`, errors: [{ messageId: 'literal' }] },
    { code: `const A = () => <p>måndag</p>;`, errors: [{ messageId: 'literal' }] },
  ],
});
