import { getTranslations } from 'next-intl/server';
import Link from 'next/link';
import { Suspense, type ReactNode } from 'react';
import { LanguageSwitcher } from '@/components/shell/language-switcher';
import { NavLinks, type NavItem } from '@/components/shell/nav-links';
import { ShellMenu } from '@/components/shell/shell-menu';
import { SignOutButton } from '@/components/shell/sign-out-button';
import type { SessionUser } from '@/lib/auth/schemas';

type ShellTranslator = Awaited<ReturnType<typeof getTranslations<'shell'>>>;

export function navItemsFor(user: SessionUser, t: ShellTranslator, emailsLabel: string): NavItem[] {
  return [
    { href: '/systems', label: t('systems') },
    { href: '/residents', label: t('residents') },
    { href: '/requests', label: t('requests') },
    { href: '/emails', label: emailsLabel },
    { href: '/reports', label: t('reports') },
    { href: '/portfolio', label: t('portfolio') },
    ...(user.role === 'admin' ? [{ href: '/admin', label: t('admin') }] : []),
  ];
}

/** The signed-in frame of every portal page (and of the not-found page for a signed-in user). */
export async function PortalShell({ user, children }: { user: SessionUser; children: ReactNode }) {
  const [t, te] = await Promise.all([getTranslations('shell'), getTranslations('emails')]);
  return (
    <>
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-slate-900 focus:shadow">
        {t('skipToMain')}
      </a>
      <header className="border-b border-slate-200 print:border-0 dark:border-slate-800" data-shell="header">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-2 sm:py-3">
          <Link href="/systems" className="font-semibold tracking-tight">{t('brand')}</Link>
          <ShellMenu>
            <nav aria-label={t('mainNav')} className="print:hidden">
              <NavLinks items={navItemsFor(user, t, te('nav'))} />
            </nav>
            <div className="flex items-center justify-between gap-3 text-sm print:hidden">
              <p className="max-w-[11rem] truncate text-slate-600 dark:text-slate-300" title={`${user.name} (${user.email})`}>
                <span className="sr-only">{t('signedInAs')} </span>
                {user.name} <span className="text-slate-500 dark:text-slate-400">({t('role', { role: user.role })})</span>
              </p>
              <Suspense>
                <LanguageSwitcher />
              </Suspense>
              <SignOutButton />
            </div>
          </ShellMenu>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto max-w-6xl px-4 py-6 focus:outline-none">
        {children}
      </main>
    </>
  );
}
