import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { NavLinks } from '@/components/shell/nav-links';

export default async function AdminLayout({ children }: { children: ReactNode }) {
  const t = await getTranslations('admin');
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
