'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { Button } from '@/components/ui/button';

/**
 * Signs out with the two requests next-auth's own `signOut()` makes (CSRF token, then POST),
 * without shipping next-auth/react (~22 kB gzipped) to every portal page.
 */
async function signOut(): Promise<void> {
  const csrf = (await (await fetch('/api/auth/csrf', { cache: 'no-store' })).json()) as { csrfToken: string };
  await fetch('/api/auth/signout', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrfToken: csrf.csrfToken, callbackUrl: '/sign-in', json: 'true' }),
  });
}

export function SignOutButton() {
  const t = useTranslations('shell');
  const [pending, setPending] = useState(false);
  return (
    <Button
      variant="secondary"
      disabled={pending}
      onClick={() => {
        setPending(true);
        // Wherever the requests end, leave the signed-in pages; the server has revoked the session if they succeeded.
        void signOut().finally(() => window.location.assign('/sign-in'));
      }}
    >
      {pending ? t('signingOut') : t('signOut')}
    </Button>
  );
}
