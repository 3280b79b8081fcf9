import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { LanguageSwitcher } from '@/components/shell/language-switcher';
import { withIntl } from '@/tests/intl';
import { SignInForm } from './sign-in-form';

vi.mock('next/navigation', () => ({
  useRouter: () => ({ refresh: () => undefined }),
  usePathname: () => '/sign-in',
  useSearchParams: () => new URLSearchParams('callbackUrl=/residents'),
}));

const form = (props: Partial<Parameters<typeof SignInForm>[0]> = {}) => <SignInForm entra={false} csrfToken="token" {...props} />;

describe('SignInForm', () => {
  it('posts to the credentials callback without JavaScript, with the CSRF token and a same-site return path', () => {
    const html = renderToStaticMarkup(withIntl(form({ callbackUrl: '//evil.example' })));
    expect(html).toMatch(/<form[^>]* action="\/api\/auth\/callback\/credentials"[^>]* method="post"/);
    expect(html).toContain('name="csrfToken" value="token"');
    expect(html).toContain('name="callbackUrl" value="/systems"');
    expect(html).toContain('>E-mail</label>');
    expect(html).toContain('>Sign in</button>');
  });

  it('says why an earlier form post failed', () => {
    expect(renderToStaticMarkup(withIntl(form({ initialError: 'CredentialsSignin' })))).toContain('The e-mail address or password is wrong.');
    expect(renderToStaticMarkup(withIntl(form({ initialError: 'Throttled' })))).toContain('Too many sign-in attempts.');
    expect(renderToStaticMarkup(withIntl(form({ initialError: 'toString' })))).toContain('Signing in failed. Please try again.');
  });

  it('is Swedish for a Swedish reader, errors and the Microsoft button too', () => {
    const html = renderToStaticMarkup(withIntl(form({ initialError: 'CredentialsSignin', entra: true }), 'sv'));
    expect(html).toContain('>E-post</label>');
    expect(html).toContain('>Lösenord</label>');
    expect(html).toContain('>Logga in</button>');
    expect(html).toContain('Fel e-postadress eller lösenord.');
    expect(html).toContain('Logga in med Microsoft');
  });
});

describe('the language switcher on the sign-in page', () => {
  it('posts the choice to /api/me/locale and comes back to the sign-in page, its return path kept', () => {
    const html = renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>{withIntl(<LanguageSwitcher />, 'sv')}</QueryClientProvider>,
    );
    expect(html).toMatch(/<form[^>]* action="\/api\/me\/locale" method="post"/);
    expect(html).toContain('name="returnTo" value="/sign-in?callbackUrl=%2Fresidents"');
    expect(html).toMatch(/<button type="submit" value="en" lang="en" aria-pressed="false"[^>]* name="locale">English</);
    expect(html).toMatch(/<button type="submit" value="sv" lang="sv" aria-pressed="true"[^>]* name="locale">Svenska</);
    expect(html).toContain('Byt språk');
  });
});
