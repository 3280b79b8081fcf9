import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import Link from 'next/link';
import { requirePageAdmin } from '@/lib/api/session';
import { cardClass } from '@/components/ui/styles';
import { MirrorLoadProgress } from '@/components/admin/mirror-load-progress';
import { getDb } from '@/lib/db';
import { readLoadProgress } from '@/lib/mirror/progress';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('admin');
  return { title: t('title') };
}

const linkClass = 'font-medium text-brand-600 underline dark:text-brand-100';
const hintClass = 'mt-1 text-sm text-slate-600 dark:text-slate-300';

export default async function AdminPage() {
  await requirePageAdmin('/admin');
  const [t, progress] = await Promise.all([getTranslations('admin'), getDb().then(({ db }) => readLoadProgress(db))]);
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
      <MirrorLoadProgress progress={progress} />
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <li className={cardClass}>
          <Link href="/admin/systems" className={linkClass}>{t('sections.systems')}</Link>
          <p className={hintClass}>{t('hints.systems')}</p>
        </li>
        <li className={cardClass}>
          <Link href="/admin/managers" className={linkClass}>{t('sections.accounts')}</Link>
          <p className={hintClass}>{t('hints.accounts')}</p>
        </li>
        <li className={cardClass}>
          <Link href="/admin/audit" className={linkClass}>{t('sections.audit')}</Link>
          <p className={hintClass}>{t('hints.audit')}</p>
        </li>
        <li className={cardClass}>
          <Link href="/admin/retention" className={linkClass}>{t('sections.retention')}</Link>
          <p className={hintClass}>{t('hints.retention')}</p>
        </li>
        <li className={cardClass}>
          <Link href="/admin/personal-data" className={linkClass}>{t('sections.personalData')}</Link>
          <p className={hintClass}>{t('hints.personalData')}</p>
        </li>
      </ul>
    </div>
  );
}
