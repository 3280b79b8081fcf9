import type { ReactNode } from 'react';
import { NavLinks } from '@/components/shell/nav-links';

// The admin area's own sections, inside its pages (the portal header links only to /admin).
const sections = [
  { href: '/admin/systems', label: 'Connected systems' },
  { href: '/admin/managers', label: 'Accounts' },
  { href: '/admin/audit', label: 'Audit log' },
];

export default function AdminLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-col gap-4">
      <nav aria-label="Admin sections">
        <NavLinks items={sections} />
      </nav>
      {children}
    </div>
  );
}
