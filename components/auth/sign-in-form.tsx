'use client';

import { signIn } from 'next-auth/react';
import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { inputClass, labelClass } from '@/components/ui/styles';

/** next-auth's error codes (in the answer, or in `?error=` after a form post), and what the reader is told. */
const ERRORS = { CredentialsSignin: 'credentials', Throttled: 'throttled', AccessDenied: 'accessDenied' } as const;
type SignInError = (typeof ERRORS)[keyof typeof ERRORS] | 'failed';

const errorOf = (code: string | null | undefined): SignInError => (code && Object.hasOwn(ERRORS, code) ? ERRORS[code as keyof typeof ERRORS] : 'failed');

/** Only same-site paths, so a crafted link cannot send people elsewhere after sign-in. */
function safeReturnPath(value: string | undefined): string {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : '/systems';
}

function formText(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
}

/**
 * E-mail and password. Hydrated, it signs in with fetch and shows errors in place; before hydration
 * or without JavaScript the same form is a plain POST to next-auth's credentials callback (with the
 * CSRF token proxy.ts issued), so the password never lands in a URL.
 */
export function SignInForm({ callbackUrl, initialError, entra, csrfToken }: { callbackUrl?: string; initialError?: string; entra: boolean; csrfToken: string }) {
  const t = useTranslations('auth');
  // The error's kind, not its words: a language switch re-renders it in the new language.
  const [error, setError] = useState<SignInError | undefined>(initialError ? errorOf(initialError) : undefined);
  const [pending, setPending] = useState(false);
  const target = safeReturnPath(callbackUrl);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setPending(true);
    setError(undefined);
    const result = await signIn('credentials', {
      redirect: false,
      email: formText(data, 'email'),
      password: formText(data, 'password'),
    }).catch(() => undefined);
    if (result?.ok && !result.error) {
      window.location.assign(target);
      return;
    }
    setPending(false);
    setError(errorOf(result?.error));
  }

  return (
    <div className="flex flex-col gap-4">
      <form
        method="post"
        action="/api/auth/callback/credentials"
        onSubmit={(e) => void onSubmit(e)}
        className="flex flex-col gap-4"
        noValidate
        aria-describedby={error ? 'sign-in-error' : undefined}
      >
        <input type="hidden" name="csrfToken" value={csrfToken} />
        <input type="hidden" name="callbackUrl" value={target} />
        {error ? (
          <p id="sign-in-error" role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
            {t(`errors.${error}`)}
          </p>
        ) : null}
        <div className="flex flex-col gap-1">
          <label htmlFor="email" className={labelClass}>{t('email')}</label>
          <input id="email" name="email" type="email" autoComplete="username" required className={inputClass} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="password" className={labelClass}>{t('password')}</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required className={inputClass} />
        </div>
        <Button type="submit" disabled={pending}>
          {pending ? t('submitting') : t('submit')}
        </Button>
      </form>
      {entra ? (
        <Button variant="secondary" onClick={() => void signIn('azure-ad', { callbackUrl: target })}>
          {t('microsoft')}
        </Button>
      ) : null}
    </div>
  );
}
