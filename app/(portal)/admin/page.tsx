import type { Metadata } from 'next';
import Link from 'next/link';
import { requirePageAdmin } from '@/lib/auth/session';
import { cardClass } from '@/components/ui/styles';

export const metadata: Metadata = { title: 'Admin' };

const linkClass = 'font-medium text-brand-600 underline dark:text-brand-100';
const hintClass = 'mt-1 text-sm text-slate-600 dark:text-slate-300';

export default async function AdminPage() {
  await requirePageAdmin('/admin');
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold tracking-tight">Admin</h1>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <li className={cardClass}>
          <Link href="/admin/systems" className={linkClass}>Connected systems</Link>
          <p className={hintClass}>Connect systems with an approval id; set names and time zones; disconnect them.</p>
        </li>
        <li className={cardClass}>
          <Link href="/admin/managers" className={linkClass}>Accounts</Link>
          <p className={hintClass}>Create managers and admins, reset passwords, choose which systems each manager may use, deactivate or delete accounts.</p>
        </li>
        <li className={cardClass}>
          <Link href="/admin/audit" className={linkClass}>Audit log</Link>
          <p className={hintClass}>Who changed what in the admin area, and when.</p>
        </li>
      </ul>
    </div>
  );
}
