import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { NavLinks } from '@/components/shell/nav-links';
import { getSession } from '@/lib/api/session';

export default async function AdminLayout({ children }: { children: ReactNode }) {
  const [t, user] = await Promise.all([getTranslations('admin'), getSession()]);
  // A manager gets the pages' 403 ("for admins", ./forbidden.tsx) without the admin sections' links;
  // each page checks the role itself (requirePageAdmin).
  if (user?.role !== 'admin') return <>{children}</>;
  // The admin area's own sections, inside its pages (the portal header links only to /admin).
  const sections = [
    { href: '/admin/systems', label: t('sections.systems') },
    { href: '/admin/managers', label: t('sections.accounts') },
    { href: '/admin/audit', label: t('sections.audit') },
    { href: '/admin/retention', label: t('sections.retention') },
    { href: '/admin/personal-data', label: t('sections.personalData') },
  ];
  return (
    <div className="flex flex-col gap-4">
      <nav aria-label={t('sectionsNav')}>
        <NavLinks items={sections} />
      </nav>
      {children}
    </div>
  );
}
