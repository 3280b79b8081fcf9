import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { Suspense } from 'react';
import { SignInForm } from '@/components/auth/sign-in-form';
import { LanguageSwitcher } from '@/components/shell/language-switcher';
import { CSRF_HEADER } from '@/lib/auth/csrf';
import { entraEnabled } from '@/lib/auth/options';
import { DEMO_ADMIN_EMAIL, DEMO_MANAGER_EMAIL, DEMO_PASSWORD } from '@/lib/auth/demo-seed';
import { getSession } from '@/lib/api/session';
import { env } from '@/lib/env';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('auth');
  return { title: t('metaTitle') };
}

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
  const t = await getTranslations('auth');
  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-sm flex-col justify-center gap-6 px-4 py-12">
      {/* Before sign-in the choice is kept in this browser's cookie (app/api/me/locale), and the page is drawn again in it. */}
      <div className="flex justify-end">
        <Suspense>
          <LanguageSwitcher />
        </Suspense>
      </div>
      <h1 className="text-2xl font-semibold tracking-tight">{t('heading')}</h1>
      {env.demoMode && (
        <section aria-labelledby="demo-mode" className="rounded-md border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-500 dark:bg-amber-950 dark:text-amber-50">
          <h2 id="demo-mode" className="font-semibold">{t('demoTitle')}</h2>
          <p className="mt-1">
            {t.rich('demoBody', { adminEmail: DEMO_ADMIN_EMAIL, managerEmail: DEMO_MANAGER_EMAIL, password: DEMO_PASSWORD, code: (chunks) => <code>{chunks}</code> })}
          </p>
        </section>
      )}
      <SignInForm callbackUrl={callbackUrl} initialError={error} entra={entraEnabled()} csrfToken={csrfToken} />
    </main>
  );
}
