import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/auth/sign-in-form';
import { CSRF_HEADER } from '@/lib/auth/csrf';
import { entraEnabled } from '@/lib/auth/options';
import { DEMO_ADMIN_EMAIL, DEMO_MANAGER_EMAIL, DEMO_PASSWORD } from '@/lib/auth/demo-seed';
import { getSession } from '@/lib/auth/session';
import { env } from '@/lib/env';

export const metadata: Metadata = { title: 'Sign in' };

/** next-auth sends a failed form sign-in back with an absolute callbackUrl on this portal: keep its path. */
function ownPath(value: string): string {
  try {
    const url = new URL(value, env.PORTAL_URL);
    return url.origin === new URL(env.PORTAL_URL).origin ? `${url.pathname}${url.search}` : value;
  } catch {
    return value;
  }
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = typeof params.callbackUrl === 'string' ? ownPath(params.callbackUrl) : undefined;
  const error = typeof params.error === 'string' ? params.error : undefined;
  if (await getSession()) redirect('/systems');
  // Set by proxy.ts with next-auth's CSRF cookie: the form then posts without JavaScript too.
  const csrfToken = (await headers()).get(CSRF_HEADER) ?? '';
  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-sm flex-col justify-center gap-6 px-4 py-12">
      <h1 className="text-2xl font-semibold tracking-tight">Sign in to the booking portal</h1>
      {env.demoMode && (
        <section aria-labelledby="demo-mode" className="rounded-md border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-500 dark:bg-amber-950 dark:text-amber-50">
          <h2 id="demo-mode" className="font-semibold">Demo mode</h2>
          <p className="mt-1">
            This portal runs the built-in sandbox: made-up buildings and residents, not a real booking system. Sign in as{' '}
            <code>{DEMO_ADMIN_EMAIL}</code> (admin) or <code>{DEMO_MANAGER_EMAIL}</code> (manager), password <code>{DEMO_PASSWORD}</code>.
          </p>
        </section>
      )}
      <SignInForm callbackUrl={callbackUrl} initialError={error} entra={entraEnabled()} csrfToken={csrfToken} />
    </main>
  );
}
