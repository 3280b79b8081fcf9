import Link from 'next/link';
import type { ReactNode } from 'react';
import { LiveEvents } from '@/components/booking/live-events';
import { Providers } from '@/components/providers';
import { NavLinks, type NavItem } from '@/components/shell/nav-links';
import { SignOutButton } from '@/components/shell/sign-out-button';
import { requirePageUser } from '@/lib/auth/session';
import { getDb } from '@/lib/db';
import { latestEventId } from '@/lib/events/store';

export default async function PortalLayout({ children }: { children: ReactNode }) {
  const user = await requirePageUser();
  // The live stream starts after the newest event this render could reflect.
  const lastEventId = await getDb()
    .then(({ db }) => latestEventId(db))
    .catch(() => 0);
  const items: NavItem[] = [
    { href: '/systems', label: 'Systems' },
    { href: '/residents', label: 'Residents' },
    { href: '/requests', label: 'Requests' },
    ...(user.role === 'admin' ? [{ href: '/admin', label: 'Admin' }] : []),
  ];
  return (
    <>
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-slate-900 focus:shadow">
        Skip to main content
      </a>
      <header className="border-b border-slate-200 dark:border-slate-800">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3">
          <Link href="/systems" className="font-semibold tracking-tight">Booking portal</Link>
          <nav aria-label="Main" className="order-3 w-full sm:order-none sm:w-auto">
            <NavLinks items={items} />
          </nav>
          <div className="flex items-center gap-3 text-sm">
            <p className="max-w-[11rem] truncate text-slate-600 dark:text-slate-300" title={`${user.name} (${user.email})`}>
              <span className="sr-only">Signed in as </span>
              {user.name} <span className="text-slate-500 dark:text-slate-400">({user.role})</span>
            </p>
            <SignOutButton />
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto max-w-6xl px-4 py-6 focus:outline-none">
        <Providers>
          <LiveEvents lastEventId={lastEventId}>{children}</LiveEvents>
        </Providers>
      </main>
    </>
  );
}
