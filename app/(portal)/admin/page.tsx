import type { Metadata } from 'next';
import Link from 'next/link';
import { requirePageAdmin } from '@/lib/auth/session';
import { cardClass } from '@/components/ui/styles';

export const metadata: Metadata = { title: 'Admin' };

export default async function AdminPage() {
  await requirePageAdmin('/admin');
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold tracking-tight">Admin</h1>
      <ul className="grid gap-3 sm:grid-cols-2">
        <li className={cardClass}>
          <Link href="/admin/systems" className="font-medium text-brand-600 underline dark:text-brand-100">Connected systems</Link>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">Connect systems with an approval id; set names and time zones.</p>
        </li>
        <li className={cardClass}>
          <Link href="/admin/managers" className="font-medium text-brand-600 underline dark:text-brand-100">Managers</Link>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">Create managers, reset passwords, choose which systems each may use.</p>
        </li>
      </ul>
    </div>
  );
}
