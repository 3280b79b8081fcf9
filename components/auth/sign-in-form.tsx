'use client';

import { signIn } from 'next-auth/react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { inputClass, labelClass } from '@/components/ui/styles';

const MESSAGES: Record<string, string> = {
  CredentialsSignin: 'The e-mail address or password is wrong.',
  Throttled: 'Too many sign-in attempts. Wait a few minutes, then try again.',
  AccessDenied: 'This account has no access to the portal. Ask an admin to create one for your e-mail address.',
};
const FALLBACK = 'Signing in failed. Please try again.';

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
  const [error, setError] = useState<string | undefined>(initialError ? (MESSAGES[initialError] ?? FALLBACK) : undefined);
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
    setError(MESSAGES[result?.error ?? ''] ?? FALLBACK);
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
            {error}
          </p>
        ) : null}
        <div className="flex flex-col gap-1">
          <label htmlFor="email" className={labelClass}>E-mail</label>
          <input id="email" name="email" type="email" autoComplete="username" required className={inputClass} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="password" className={labelClass}>Password</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required className={inputClass} />
        </div>
        <Button type="submit" disabled={pending}>
          {pending ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
      {entra ? (
        <Button variant="secondary" onClick={() => void signIn('azure-ad', { callbackUrl: target })}>
          Sign in with Microsoft
        </Button>
      ) : null}
    </div>
  );
}
