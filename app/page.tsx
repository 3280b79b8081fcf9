import { getTranslations } from 'next-intl/server';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { Suspense } from 'react';
import { LanguageSwitcher } from '@/components/shell/language-switcher';
import { getSession } from '@/lib/api/session';

export default async function HomePage() {
  if (await getSession()) redirect('/systems');
  const t = await getTranslations('auth.home');
  return (
    <main className="mx-auto flex max-w-2xl flex-col gap-4 px-4 py-16">
      <div className="flex justify-end">
        <Suspense>
          <LanguageSwitcher />
        </Suspense>
      </div>
      <h1 className="text-3xl font-semibold tracking-tight">{t('title')}</h1>
      <p className="text-slate-600 dark:text-slate-300">{t('text')}</p>
      <p>
        <Link href="/sign-in" className="inline-block rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2">
          {t('signIn')}
        </Link>
      </p>
    </main>
  );
}
