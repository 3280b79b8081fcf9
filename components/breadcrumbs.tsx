import { useTranslations } from 'next-intl';
import Link from 'next/link';

export interface Crumb {
  label: string;
  href: string;
}

/** The trail above a page heading: links to each parent, then the current page. */
export function Breadcrumbs({ parents, current }: { parents: Crumb[]; current: string }) {
  const t = useTranslations('ui');
  return (
    <nav aria-label={t('breadcrumb')} className="text-sm">
      <ol className="flex flex-wrap gap-1 text-slate-700 dark:text-slate-300">
        {parents.map((crumb) => (
          <li key={crumb.href}>
            <Link href={crumb.href} className="underline-offset-2 hover:underline">
              {crumb.label}
            </Link>
            <span aria-hidden="true"> /</span>
          </li>
        ))}
        <li aria-current="page" className="font-medium text-slate-900 dark:text-slate-100">
          {current}
        </li>
      </ol>
    </nav>
  );
}
